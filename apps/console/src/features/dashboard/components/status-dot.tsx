import type { DeviceStatus } from '../../../lib/device-stat/dashboard-model';
import classes from './dashboard.module.css';

/** A device's status circle; decorative: the status is always said in words beside or around it. */
export function StatusDot({ status, title }: { status: DeviceStatus; title?: string }) {
  return <span className={classes.dot} data-status={status} title={title} aria-hidden="true" />;
}
