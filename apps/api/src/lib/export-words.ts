import {
  DEVICE_STATES,
  EVENT_KINDS,
  NOTIFICATION_SEVERITIES,
  translate,
  type Locale,
  type MessageKey,
} from '@kontrol/contracts';

/**
 * The words downloads write for coded values (docs/telemetry.md, "Downloads"): a reader's Excel
 * shows "Готовка" and "Предупреждение", as the console does, never `cooking` or `warning`.
 */

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A device state's name, indexed like `DEVICE_STATES` (the samples store the index). */
export function stateNames(locale: Locale): readonly string[] {
  return DEVICE_STATES.map((state) => capitalised(translate(locale, `state.${state}`)));
}

const SEVERITIES: ReadonlySet<string> = new Set(NOTIFICATION_SEVERITIES);
const EVENT_KIND_SET: ReadonlySet<string> = new Set(EVENT_KINDS);

/** A notification severity's name; an unknown code stays as it is. */
export function severityName(locale: Locale, severity: string): string {
  return SEVERITIES.has(severity) ? translate(locale, `severity.${severity}` as MessageKey) : severity;
}

/** A notification kind's name (a device event's kind as the events screens name it); an unknown code stays. */
export function notificationKindName(locale: Locale, kind: string): string {
  if (kind === 'manual' || kind === 'request' || kind === 'device_limit')
    return translate(locale, `notification.kind.${kind}`);
  return EVENT_KIND_SET.has(kind) ? translate(locale, `event.kind.${kind}` as MessageKey) : kind;
}

export const yesNo = (locale: Locale, value: boolean) =>
  translate(locale, value ? 'export.yes' : 'export.no');
