import type { DeviceState, EventKind, EventSeverity } from '@kontrol/contracts';
import type { TFunction } from 'i18next';

/*
 * Words several screens show for the same values, in the interface language of `t`: the label
 * modules of the dashboard, the events and the templates build on these.
 */

export function severityLabels(t: TFunction): Record<EventSeverity, string> {
  return { info: t('Information'), warning: t('Warning'), critical: t('Critical') };
}

export function deviceStateLabels(t: TFunction): Record<DeviceState, string> {
  return {
    off: t('Off'),
    idle: t('Idle'),
    heating: t('Heating'),
    cooking: t('Cooking'),
    washing: t('Washing'),
    fault: t('Fault'),
  };
}

/** What an event is about; a template's rules are the same kinds but `manual`. */
export function eventKindLabels(t: TFunction): Record<EventKind, string> {
  return {
    current_above: t('Current above the norm'),
    current_below: t('Current below the norm'),
    no_data: t('No data'),
    state_too_long: t('State lasts too long'),
    error_code: t('Error code'),
    door_open_while_heating: t('Door open while heating'),
    manual: t('Written by hand'),
  };
}

/** Severity colours, as the event screens mark them: beside the word, which carries the meaning. */
export const SEVERITY_COLOURS: Record<EventSeverity, string> = {
  info: 'var(--mantine-color-blue-7)',
  warning: 'var(--mantine-color-orange-6)',
  critical: 'var(--mantine-color-red-7)',
};

/**
 * The same as hex colours, for marks drawn on a canvas (event marks on charts): the chart
 * palette's hues that keep 3:1 contrast against both colour schemes.
 */
export const SEVERITY_HEX: Record<EventSeverity, string> = {
  info: '#1c7ed6',
  warning: '#e8590c',
  critical: '#f03e3e',
};
