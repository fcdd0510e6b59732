import { NotificationsPanel } from '../components/notifications-panel';

/**
 * `/account/notify`: the user's notifications on a page of their own, for holders
 * of `telemetry` (config/paths.ts `pathModules`); the same list as the telemetry page's tab, its
 * filters in the query string.
 */
export function NotifyPage() {
  return <NotificationsPanel />;
}
