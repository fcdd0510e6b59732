import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDashboardLabels } from '../dashboard-labels';
import type { DeviceStatus } from '../dashboard-model';
import classes from './dashboard.module.css';
import { StatusDot } from './status-dot';

export interface StatusCircle {
  id: number;
  name: string;
  status: DeviceStatus;
}

const ORDER: readonly DeviceStatus[] = ['problem', 'offline', 'online'];
/** Names read out per group; a longer group is summed up after them. */
const NAMED = 20;

/**
 * A coloured circle per device, grouped by status (problem, offline, online). The circles are
 * drawn only; each group says in words how many devices it holds and names the first of them,
 * and a circle names its device on hover.
 */
export const StatusCircles = memo(function StatusCircles({
  circles,
}: {
  circles: readonly StatusCircle[] | undefined;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const headingId = useId();
  const groups = ORDER.map((status) => ({
    status,
    devices: circles?.filter((circle) => circle.status === status) ?? [],
  }));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} h="100%">
      <Title order={2} size="h4" id={headingId} mb="sm">
        {t('Device statuses')}
      </Title>
      {!circles ? (
        <Skeleton height={160} aria-hidden="true" />
      ) : circles.length === 0 ? (
        <Text c="dimmed" size="sm" role="status">
          {t('No devices yet.')}
        </Text>
      ) : (
        <Stack gap="sm" className={classes.circles} tabIndex={0} role="group" aria-labelledby={headingId}>
          {groups.map(({ status, devices }) =>
            devices.length === 0 ? null : (
              <div key={status}>
                <Group gap={6} mb={4} wrap="nowrap">
                  <StatusDot status={status} />
                  <Text size="sm" fw={500}>
                    {t('{{status}}: {{count}}', { status: labels.status[status], count: devices.length })}
                  </Text>
                </Group>
                <div
                  className={classes.dots}
                  role="img"
                  aria-label={`${labels.status[status]}: ${devices
                    .slice(0, NAMED)
                    .map((device) => device.name)
                    .join(', ')}${
                    devices.length > NAMED
                      ? ` ${t('and {{count}} more', { count: devices.length - NAMED })}`
                      : ''
                  }`}
                >
                  {devices.map((device) => (
                    <StatusDot key={device.id} status={status} title={device.name} />
                  ))}
                </div>
              </div>
            ),
          )}
        </Stack>
      )}
    </Paper>
  );
});
