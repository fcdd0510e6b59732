import type { EventKind, EventSeverity } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The words of the events screens in the interface language: kinds and severities. */
export function useEventLabels() {
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
        manual: t('Written by hand'),
      } satisfies Record<EventKind, string>,
      severity: {
        info: t('Information'),
        warning: t('Warning'),
        critical: t('Critical'),
      } satisfies Record<EventSeverity, string>,
    }),
    [t],
  );
}

export type EventLabels = ReturnType<typeof useEventLabels>;

/** Severity colours: a mark beside the word, so the word carries the meaning and the contrast. */
export const SEVERITY_COLOURS: Record<EventSeverity, string> = {
  info: 'var(--mantine-color-blue-7)',
  warning: 'var(--mantine-color-orange-6)',
  critical: 'var(--mantine-color-red-7)',
};
