import { EVENT_RULE_KINDS, type EventRuleKind, type NormState } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceStateLabels, eventKindLabels, severityLabels } from '../../lib/labels';

/** A template's rule kinds: every event kind but the hand-written one. */
function ruleKinds(kinds: ReturnType<typeof eventKindLabels>) {
  return Object.fromEntries(EVENT_RULE_KINDS.map((kind) => [kind, kinds[kind]])) as Record<
    EventRuleKind,
    string
  >;
}

/** The words of the template editor in the interface language: rule kinds, severities, states. */
export function useTemplateLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      kind: ruleKinds(eventKindLabels(t)),
      severity: severityLabels(t),
      state: deviceStateLabels(t),
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
