import type { Notification } from '@kontrol/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { NoRecords } from '../../../components/no-records';
import { paths } from '../../../config/paths';
import { toApiFailure } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useLatestNotifications } from '../api/get-latest-notifications';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useLiveNotifications } from '../api/use-live-notifications';
import { SEVERITY_COLOURS, useFormatNotificationTime, useSeverityLabels } from '../notification-labels';
import { MAX_TOASTS, NotificationToasts, TOAST_MS } from './notification-toasts';

/** Counts above this show as "99+". */
const MAX_SHOWN_COUNT = 99;

function BellIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The notification bell of the account header (the web channel, docs/notifications.md): the
 * signed-in user's unread count, a list of their newest notifications with "Mark all as read" and
 * a way to the notifications tab, and a pop-up for each notification arriving on the live stream.
 * Any signed-in user has one: their own notifications need no module. Self-contained: mount it
 * inside the account area (it reads the signed-in user and links with the router).
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [opened, setOpened] = useState(false);
  const { data: unread = 0 } = useUnreadCount();
  const [toasts, setToasts] = useState<Notification[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const closeToast = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((shown) => shown.filter((toast) => toast.id !== id));
  }, []);

  useLiveNotifications((arrived) => {
    setToasts((shown) => {
      const fresh = arrived.filter((one) => !shown.some((toast) => toast.id === one.id));
      return [...fresh, ...shown].slice(0, MAX_TOASTS);
    });
    for (const one of arrived) {
      if (timers.current.has(one.id)) continue;
      timers.current.set(
        one.id,
        setTimeout(() => closeToast(one.id), TOAST_MS),
      );
    }
  });
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  // Formatted only when shown: the page's first number formatter loads the language's data
  // (about 15 ms on a slow machine), which the frame's first render need not wait for.
  const count =
    unread === 0 ? '' : unread > MAX_SHOWN_COUNT ? `${formatNumber(MAX_SHOWN_COUNT)}+` : formatNumber(unread);
  const seesList = user.acl_modules.some((module) => module.slug === 'telemetry');

  return (
    <>
      <Indicator
        inline
        color="red"
        size={18}
        offset={4}
        disabled={unread === 0}
        label={<span aria-hidden="true">{count}</span>}
      >
        <Popover
          opened={opened}
          onChange={setOpened}
          position="bottom-end"
          width="min(24rem, calc(100vw - 24px))"
          shadow="md"
          trapFocus
          returnFocus
          withinPortal
        >
          <Popover.Target>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={unread > 0 ? t('Notifications, unread: {{count}}', { count }) : t('Notifications')}
              onClick={() => setOpened((open) => !open)}
            >
              <BellIcon />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown p={0}>
            {opened && (
              <LatestNotifications unread={unread} seesList={seesList} onLeave={() => setOpened(false)} />
            )}
          </Popover.Dropdown>
        </Popover>
      </Indicator>
      <NotificationToasts toasts={toasts} onClose={closeToast} />
    </>
  );
}

/** The bell's open list: the newest notifications, "Mark all as read", and the way to them all. */
function LatestNotifications({
  unread,
  seesList,
  onLeave,
}: {
  unread: number;
  seesList: boolean;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const { data: latest, isPending, error } = useLatestNotifications();
  const markRead = useMarkNotificationsRead();
  const severities = useSeverityLabels();
  const formatTime = useFormatNotificationTime();

  return (
    <Stack gap={0}>
      <Group justify="space-between" px="sm" py="xs" wrap="nowrap">
        <Text fw={600} size="sm">
          {t('Notifications')}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate({})}
        >
          {t('Mark all as read')}
        </Button>
      </Group>
      <Divider />
      {markRead.error && (
        <Box p="xs">
          <FormFailure failure={toApiFailure(markRead.error)} fields={[]} />
        </Box>
      )}
      <ScrollArea.Autosize mah={360} type="auto">
        {isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label={t('Loading…')} />
          </Group>
        ) : error || !latest ? (
          <Alert color="red" role="alert" m="xs">
            {t('The notifications could not be loaded. Please try again later.')}
          </Alert>
        ) : latest.length === 0 ? (
          <NoRecords />
        ) : (
          <Box
            component="ul"
            aria-label={t('Latest notifications')}
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
          >
            {latest.map((one) => (
              <Box
                component="li"
                key={one.id}
                px="sm"
                py="xs"
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Box
                    aria-hidden="true"
                    mt={6}
                    w={10}
                    h={10}
                    bg={SEVERITY_COLOURS[one.severity]}
                    style={{ borderRadius: '50%', flex: 'none' }}
                  />
                  <Box style={{ minWidth: 0 }}>
                    <Text size="sm" fw={one.read_at === null ? 700 : 400}>
                      {one.title}
                      {one.read_at === null && <VisuallyHidden> ({t('Unread')})</VisuallyHidden>}
                    </Text>
                    {one.body && (
                      <Text size="xs" lineClamp={2} c="var(--mantine-color-text)">
                        {one.body}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      <time dateTime={one.occurred_at}>{formatTime(one.occurred_at)}</time> ·{' '}
                      {severities[one.severity]}
                    </Text>
                  </Box>
                </Group>
              </Box>
            ))}
          </Box>
        )}
      </ScrollArea.Autosize>
      {seesList && (
        <>
          <Divider />
          <Anchor
            component={Link}
            to={paths.account.telemetry({ tab: 'notifications' })}
            onClick={onLeave}
            size="sm"
            px="sm"
            py="xs"
          >
            {t('All notifications')}
          </Anchor>
        </>
      )}
    </Stack>
  );
}
