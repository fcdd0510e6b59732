import type { Device } from '@kontrol/contracts';
import { Box, Group, Paper, Text, Title, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader';
import { formatTime } from '../../../lib/format';
import { useOnlineIntervals } from '../api/get-device-reports';
import { useNow } from './use-now';

const MINUTE_MS = 60_000;
const PERIOD_MS = 24 * 3_600_000;

/**
 * The device's last 24 hours as a strip of online (green) and offline (grey) spans, with the share
 * of time online; renewed every minute (the status and last online moment above it change live).
 */
export function ConnectionHistory({ device }: { device: Device }) {
  const { t } = useTranslation();
  const now = useNow(MINUTE_MS);
  const range = useMemo(() => {
    const finish = now - (now % MINUTE_MS) + MINUTE_MS;
    return { start: finish - PERIOD_MS, finish };
  }, [now]);
  const { data, isPending } = useOnlineIntervals(device.id, range, device.is_smart);

  const spans = (data?.intervals ?? []).map((interval) => {
    const start = Date.parse(interval.start);
    const finish = Date.parse(interval.finish);
    return { ...interval, from: start, to: finish, share: (finish - start) / (range.finish - range.start) };
  });
  const onlineMs = spans.filter((span) => span.online).reduce((sum, span) => sum + (span.to - span.from), 0);
  const percent = Math.round((onlineMs / (range.finish - range.start)) * 100);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-connection-history">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5" id="device-connection-history">
          {t('Connection, last 24 hours')}
        </Title>
        {data && <Text size="sm">{t('Online {{percent}}% of the time', { percent })}</Text>}
      </Group>
      {isPending ? (
        <PageLoader inline />
      ) : (
        <Box
          role="img"
          aria-label={t('Online {{percent}}% of the time', { percent })}
          style={{ display: 'flex', height: 20, borderRadius: 4, overflow: 'hidden' }}
        >
          {spans.map((span) => (
            <Tooltip
              key={span.start}
              label={`${span.online ? t('Online') : t('Offline')} ${formatTime(span.from)}–${formatTime(span.to)}`}
            >
              <Box
                data-online={span.online}
                style={{
                  flexGrow: span.share,
                  flexBasis: 0,
                  minWidth: 1,
                  background: span.online ? 'var(--mantine-color-teal-7)' : 'var(--mantine-color-gray-4)',
                }}
              />
            </Tooltip>
          ))}
        </Box>
      )}
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {formatTime(range.start)}
        </Text>
        <Text size="xs" c="dimmed">
          {t('now')}
        </Text>
      </Group>
    </Paper>
  );
}
