import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import classes from './dashboard.module.css';
import { DotCanvas } from './dot-canvas';
import { StatusDot } from './status-dot';

export interface StatusCircle {
  id: number;
  name: string;
  /** Online by the `online` counter's rule (else it counts as offline). */
  online: boolean;
  /** Its status is `problem` (dashboard-model.ts `statusOf`): drawn as a red diamond. */
  attention: boolean;
}

const GROUPS = ['online', 'offline'] as const;
/** Names read out per group; a longer group is summed up after them. */
const NAMED = 20;
/** A group of more devices is drawn on a canvas (dot-canvas.tsx) rather than as an element each. */
export const CANVAS_FROM = 1000;

/**
 * A circle per device in two groups, online and offline, holding exactly the devices the two
 * counters count; within each, the devices that need attention come first as red diamonds. Each
 * group says in words how many devices it holds and how many of them need attention, and names
 * the first of them; a legend says what "needs attention" means; a circle names its device on
 * hover.
 */
export const StatusCircles = memo(function StatusCircles({
  circles,
}: {
  circles: readonly StatusCircle[] | undefined;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const headingId = useId();
  const groups = GROUPS.map((group) => {
    const devices = circles?.filter((circle) => circle.online === (group === 'online')) ?? [];
    return {
      group,
      devices: [...devices.filter((circle) => circle.attention), ...devices.filter((c) => !c.attention)],
      attention: devices.filter((circle) => circle.attention).length,
    };
  });
  const anyAttention = groups.some((group) => group.attention > 0);
  /** What a group's circles show, in words: its first devices by name, and how many more. */
  const groupLabel = (group: (typeof GROUPS)[number], devices: readonly StatusCircle[]) => {
    const named = devices
      .slice(0, NAMED)
      .map((device) => (device.attention ? `${device.name} (${labels.status.problem})` : device.name));
    const more =
      devices.length > NAMED ? ` ${t('and {{count}} more', { count: devices.length - NAMED })}` : '';
    return `${labels.status[group]}: ${named.join(', ')}${more}`;
  };
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
          {groups.map(({ group, devices, attention }) =>
            devices.length === 0 ? null : (
              <div key={group} data-status-group={group}>
                <Group gap={6} mb={4} wrap="nowrap">
                  <StatusDot status={group} />
                  <Text size="sm" fw={500}>
                    {t('{{status}}: {{count}}', { status: labels.status[group], count: devices.length })}
                  </Text>
                  {attention > 0 && (
                    <Group gap={4} wrap="nowrap">
                      <StatusDot status="problem" />
                      <Text size="sm" c="dimmed">
                        {t('needing attention: {{count}}', { count: attention })}
                      </Text>
                    </Group>
                  )}
                </Group>
                {devices.length > CANVAS_FROM ? (
                  <DotCanvas devices={devices} group={group} label={groupLabel(group, devices)} />
                ) : (
                  <div className={classes.dots} role="img" aria-label={groupLabel(group, devices)}>
                    {devices.map((device) => (
                      <StatusDot
                        key={device.id}
                        status={device.attention ? 'problem' : group}
                        title={device.name}
                      />
                    ))}
                  </div>
                )}
              </div>
            ),
          )}
          {anyAttention && (
            <Text size="xs" c="dimmed">
              {t(
                'Needs attention (a red diamond): an open event or complaint, or, online, a late start or an overdue wash. These devices are counted online or offline like the rest, as in the counters.',
              )}
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
});
