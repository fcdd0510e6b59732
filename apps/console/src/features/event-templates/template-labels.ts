import type { DeviceState, EventRuleKind, EventSeverity, NormState } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The words of the template editor in the interface language: rule kinds, severities, states. */
export function useTemplateLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      kind: {
        current_above: t('Current above the norm'),
        current_below: t('Current below the norm'),
        no_data: t('No data'),
        state_too_long: t('State lasts too long'),
        error_code: t('Error code'),
        door_open_while_heating: t('Door open while heating'),
      } satisfies Record<EventRuleKind, string>,
      severity: {
        info: t('Information'),
        warning: t('Warning'),
        critical: t('Critical'),
      } satisfies Record<EventSeverity, string>,
      state: {
        off: t('Off'),
        idle: t('Idle'),
        heating: t('Heating'),
        cooking: t('Cooking'),
        washing: t('Washing'),
        fault: t('Fault'),
      } satisfies Record<DeviceState, string>,
    }),
    [t],
  );
}

export type TemplateLabels = ReturnType<typeof useTemplateLabels>;

/** Colours of the norm bands: one hue per state, drawn faint under the current. */
export const BAND_COLOURS: Record<NormState, string> = {
  idle: '#1c7ed6',
  heating: '#e8590c',
  cooking: '#c92a2a',
  washing: '#0c8599',
};
