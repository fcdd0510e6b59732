import type { Locale } from './constants.js';
import type { EventKind } from './events.js';
import { translate, type MessageKey } from './messages.js';

/** What a rule saw when it opened an event (stored with the event as JSON). */
export interface EventDetails {
  state?: string;
  band?: { min: number; max: number };
  code?: string;
  minutes?: number;
}

function stateName(locale: Locale, state: string | undefined): string {
  return state ? translate(locale, `state.${state}` as MessageKey) : '';
}

/** An event's title in `locale`: a manual event's own, else its kind's. */
export function eventTitle(locale: Locale, kind: string, own: string | null): string {
  if (own) return own;
  return translate(locale, `event.kind.${kind as EventKind}` as MessageKey);
}

/** One line on what a rule saw ("нагрев: 52.3 А при норме 20–45 А"); null for a manual event. */
export function eventDetailText(
  locale: Locale,
  kind: string,
  details: EventDetails | null,
  value: number | null,
): string | null {
  if (!details) return null;
  const state = stateName(locale, details.state);
  switch (kind) {
    case 'current_above':
    case 'current_below':
      return details.band
        ? translate(locale, 'event.detail.band', {
            state,
            value: value === null ? '—' : value.toFixed(1),
            min: details.band.min,
            max: details.band.max,
          })
        : translate(locale, 'event.detail.no_band', {
            state,
            value: value === null ? '—' : value.toFixed(1),
          });
    case 'no_data':
      return translate(locale, 'event.detail.no_data', { minutes: details.minutes ?? 0 });
    case 'state_too_long':
      return translate(locale, 'event.detail.state', { state, minutes: details.minutes ?? 0 });
    case 'error_code':
      return translate(locale, 'event.detail.error_code', { code: details.code ?? '' });
    case 'door_open_while_heating':
      return translate(locale, 'event.detail.door');
    default:
      return null;
  }
}
