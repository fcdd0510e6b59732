import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isOnline } from '../device-list';

/** Online or offline (docs/contract.md, "States and transitions"), said in words; the colour only repeats it. */
export function DeviceStatus({ lastOnlineMs, now }: { lastOnlineMs: number | null; now: number }) {
  const { t } = useTranslation();
  const online = isOnline(lastOnlineMs, now);
  return (
    <Badge variant="dot" color={online ? 'green' : 'gray'} tt="none" fw={500}>
      {online ? t('Online') : t('Offline')}
    </Badge>
  );
}
