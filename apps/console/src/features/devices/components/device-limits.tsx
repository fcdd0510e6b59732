import type { Device, DeviceIngestDay, DeviceLimitReason, DeviceLimits } from '@kontrol/contracts';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader';
import { formatCalendarDate, formatNumber, formatTime } from '../../../lib/format';
import { useDeviceLimits } from '../api/get-device-limits';
import { useNow } from './use-now';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The day with refusals the mark is about: the newest one whose last refusal was in the last 24 hours. */
export function recentExcess(days: readonly DeviceIngestDay[], now: number): DeviceIngestDay | undefined {
  return days.find(
    (day) =>
      day.refused > 0 && day.last_refused_at !== null && now - Date.parse(day.last_refused_at) < DAY_MS,
  );
}

/**
 * The device's limits on its connection tab (docs/device-protocol.md, "Limits"): what it sent
 * today (UTC) of its daily limit and the limits in force, and, when something it sent was refused
 * in the last 24 hours, the mark "Sends more than its limit" with how much, when and why.
 */
export function DeviceLimitsPanel({ device }: { device: Device }) {
  const { t } = useTranslation();
  const now = useNow(MINUTE_MS);
  const { data, isPending, isError } = useDeviceLimits(device.id, device.is_smart);
  const today = new Date(now).toISOString().slice(0, 10);

  const reasonText = (reason: DeviceLimitReason | null, limits: DeviceLimits['limits']) => {
    switch (reason) {
      case 'connections':
        return t('more than {{max}} connections at once', { max: formatNumber(limits.connections) });
      case 'in_flight':
        return t('more than {{max}} messages at once', { max: formatNumber(limits.in_flight) });
      case 'day':
        return t('more than {{max}} samples a day', { max: formatNumber(limits.samples_per_day) });
      case 'packet_size':
        return t('messages over 4 MB');
      default:
        return t('more than {{rate}} samples per second', { rate: formatNumber(limits.samples_per_second) });
    }
  };

  if (isError) return null; // the rest of the tab does not depend on it
  const excess = data ? recentExcess(data.days, now) : undefined;
  const todays = data?.days.find((day) => day.day === today);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-limits">
      <Title order={3} size="h5" id="device-limits" mb="xs">
        {t('Limits')}
      </Title>
      {isPending || !data ? (
        <PageLoader inline />
      ) : (
        <Stack gap="xs">
          {excess && (
            <Alert color="orange" title={t('Sends more than its limit')}>
              <Text size="sm">
                {t('{{refused}} messages refused on {{day}} (UTC), the last at {{time}}: {{reason}}.', {
                  refused: formatNumber(excess.refused),
                  day: formatCalendarDate(excess.day),
                  time: formatTime(excess.last_refused_at ?? ''),
                  reason: reasonText(excess.last_reason, data.limits),
                })}
              </Text>
              <Text size="sm">
                {t('Messages over the limit are not accepted: check the controller’s settings and firmware.')}
              </Text>
            </Alert>
          )}
          <Text size="sm">
            {t('Samples today (UTC): {{samples}} of {{max}}.', {
              samples: formatNumber(todays?.samples ?? 0),
              max: formatNumber(data.limits.samples_per_day),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t(
              'At most {{rate}} samples per second on average and {{burst}} at once; {{connections}} connections and {{inFlight}} messages at once.',
              {
                rate: formatNumber(data.limits.samples_per_second),
                burst: formatNumber(data.limits.burst_samples),
                connections: formatNumber(data.limits.connections),
                inFlight: formatNumber(data.limits.in_flight),
              },
            )}
          </Text>
        </Stack>
      )}
    </Paper>
  );
}
