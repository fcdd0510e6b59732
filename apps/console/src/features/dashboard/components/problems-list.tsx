import { Anchor, Box, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { memo, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import {
  SEVERITY_COLOURS,
  useDashboardLabels,
  type DashboardLabels,
} from '../../../lib/device-stat/dashboard-labels';
import { formatMoment } from '../dashboard-format';
import type { DeviceProblem } from '../../../lib/device-stat/dashboard-model';

/** What a problem is, in words: its kind, and for open events how many and how grave. */
export function ProblemText({ problem, labels }: { problem: DeviceProblem; labels: DashboardLabels }) {
  if (problem.kind === 'complaint') {
    return (
      <span>
        {labels.problem.complaint}: {problem.count ?? 1}
      </span>
    );
  }
  if (problem.kind !== 'event') return <span>{labels.problem[problem.kind]}</span>;
  const severity = problem.severity ?? 'warning';
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <Box
        component="span"
        aria-hidden="true"
        w={10}
        h={10}
        style={{ borderRadius: '50%', background: SEVERITY_COLOURS[severity], flex: 'none' }}
      />
      <span>
        {labels.problem.event}: {problem.count ?? 1} ({labels.severity[severity]})
      </span>
    </Group>
  );
}

/** Since when, in words: a moment, or why there is none. */
export function useSinceText() {
  const { t } = useTranslation();
  return useCallback(
    (problem: DeviceProblem) => {
      if (problem.since !== null) return formatMoment(problem.since);
      if (problem.kind === 'offline') return t('Never online');
      if (problem.kind === 'washOutdated') return t('Never washed');
      return '—';
    },
    [t],
  );
}

/**
 * Which device has which problem since when: open events, then offline, late starts, overdue
 * washes and missing current templates (the rules of docs/contract.md, "States and transitions"), the most urgent first. Virtualised:
 * a large fleet can have thousands.
 */
export const ProblemsList = memo(function ProblemsList({
  problems,
}: {
  problems: readonly DeviceProblem[] | undefined;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const since = useSinceText();
  const columns = useMemo<DataTableColumn<DeviceProblem>[]>(
    () => [
      {
        id: 'device',
        header: t('Device'),
        width: 'minmax(9rem, 1fr)',
        cell: (problem) => (
          <Anchor component={Link} to={paths.account.devices.detail(problem.device.id, 'problems')} fz="sm">
            {problem.device.name}
          </Anchor>
        ),
      },
      {
        id: 'problem',
        header: t('Problem'),
        width: 'minmax(9rem, 1.2fr)',
        cell: (problem) => <ProblemText problem={problem} labels={labels} />,
      },
      { id: 'since', header: t('Since'), width: 'minmax(11rem, 1fr)', cell: since },
    ],
    [t, labels, since],
  );
  return (
    // Not a landmark of its own: the table's scroll region, named alike, is one.
    <Paper withBorder p="md" h="100%">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('Problems')}
        </Title>
        {!problems ? (
          <Stack gap={6} aria-hidden="true">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} height={32} />
            ))}
          </Stack>
        ) : problems.length === 0 ? (
          <Text c="dimmed" size="sm" role="status">
            {t('No problems right now.')}
          </Text>
        ) : (
          <DataTable
            data={problems}
            columns={columns}
            getRowId={(problem) => `${problem.device.id}:${problem.kind}`}
            label={t('Problems')}
            maxHeight={360}
          />
        )}
      </Stack>
    </Paper>
  );
});
