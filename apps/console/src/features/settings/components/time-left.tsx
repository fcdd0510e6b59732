import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `m:ss` (or `h:mm:ss`) of a span in milliseconds, never below zero. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * How long a link stays valid, counted down each second by the browser's clock. Screen readers
 * are not told every tick (it is not a live region); they read it when they reach it.
 */
export function TimeLeft({ until }: { until: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = Date.parse(until) - now;
  return (
    <Text size="sm">
      {left > 0
        ? t('The link is valid for another {{time}}.', { time: formatCountdown(left) })
        : t('The link’s time is up; waiting for the server to confirm.')}
    </Text>
  );
}
