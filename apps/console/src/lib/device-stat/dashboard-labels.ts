import type { DashboardCounter, DeviceState, EventSeverity } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceStatus, ProblemKind } from './dashboard-model';

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

export type DashboardLabels = ReturnType<typeof useDashboardLabels>;

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
