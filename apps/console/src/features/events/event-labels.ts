import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { eventKindLabels, severityLabels } from '../../lib/labels';

export { SEVERITY_COLOURS } from '../../lib/labels';

/** The words of the events screens in the interface language: kinds and severities. */
export function useEventLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      kind: eventKindLabels(t),
      severity: severityLabels(t),
    }),
    [t],
  );
}

export type EventLabels = ReturnType<typeof useEventLabels>;
