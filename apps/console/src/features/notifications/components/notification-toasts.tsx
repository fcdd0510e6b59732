import type { Notification as UserNotification } from '@kontrol/contracts';
import { Notification, Portal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SEVERITY_COLOURS, useSeverityLabels } from '../notification-labels';

/**
 * The pop-ups of newly arrived notifications, stacked at the top right under the header (newest
 * first). The stack is a log: screen readers announce each new one politely. Each closes by its
 * own button or after a while (the bell decides; see {@link TOAST_MS}).
 */
export function NotificationToasts({
  toasts,
  onClose,
}: {
  toasts: readonly UserNotification[];
  onClose: (id: number) => void;
}) {
  const { t } = useTranslation();
  const severities = useSeverityLabels();
  return (
    <Portal>
      <Stack
        role="log"
        aria-label={t('New notifications')}
        gap="xs"
        pos="fixed"
        top={64}
        right={12}
        w="min(24rem, calc(100vw - 24px))"
        style={{ zIndex: 400, pointerEvents: toasts.length > 0 ? undefined : 'none' }}
      >
        {toasts.map((toast) => (
          <Notification
            key={toast.id}
            color={SEVERITY_COLOURS[toast.severity]}
            title={toast.title}
            // Not Mantine's default `alert`: the log announces each one politely, once.
            role="group"
            aria-label={toast.title}
            withBorder
            onClose={() => onClose(toast.id)}
            closeButtonProps={{
              'aria-label': t('Close the notification «{{title}}»', { title: toast.title }),
            }}
          >
            <Text size="xs" c="dimmed" component="span" display="block">
              {severities[toast.severity]}
            </Text>
            {toast.body && (
              // The Notification's description is pale grey by default: too little contrast (axe).
              <Text size="sm" lineClamp={3} c="var(--mantine-color-text)">
                {toast.body}
              </Text>
            )}
          </Notification>
        ))}
      </Stack>
    </Portal>
  );
}

/** How long a pop-up stays before it closes by itself. */
export const TOAST_MS = 8_000;
/** At most this many pop-ups show at once; older ones make room (they stay in the list). */
export const MAX_TOASTS = 4;
