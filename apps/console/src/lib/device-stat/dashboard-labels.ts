import type { DashboardCounter } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceStateLabels, severityLabels } from '../labels';
import type { DeviceStatus, ProblemKind } from './dashboard-model';

export { SEVERITY_COLOURS, SEVERITY_HEX } from '../labels';

/** The dashboard's words in the interface language: counters, statuses, problems, states. */
export function useDashboardLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      counter: {
        online: t('Online'),
        offline: t('Offline'),
        washOutdated: t('Wash outdated'),
        workStartedSlow: t('Late start'),
        issueReports: t('Problems'),
        devicesWithoutTmplNorma: t('Without current norm'),
      } satisfies Record<DashboardCounter, string>,
      status: {
        online: t('Online'),
        offline: t('Offline'),
        problem: t('Needs attention'),
      } satisfies Record<DeviceStatus, string>,
      problem: {
        event: t('Open events'),
        complaint: t('Open complaints'),
        offline: t('Offline'),
        workStartedSlow: t('Late start'),
        washOutdated: t('Wash outdated'),
        withoutNorm: t('Without current norm'),
      } satisfies Record<ProblemKind, string>,
      severity: severityLabels(t),
      state: deviceStateLabels(t),
    }),
    [t],
  );
}

export type DashboardLabels = ReturnType<typeof useDashboardLabels>;
