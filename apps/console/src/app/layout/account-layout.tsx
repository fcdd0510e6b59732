// Every Mantine component's styles, for the account screens (the first bundle has only those of
// the guest pages; see app/provider.tsx).
import '@mantine/core/styles.layer.css';
import { DEVICE_VIEWING_MODULES, type AuthUser } from '@kontrol/contracts';
import {
  ActionIcon,
  AppShell,
  Box,
  Burger,
  Drawer,
  Group,
  Menu,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch';
import { PageLoader } from '../../components/page-loader';
import { ScreenTitle } from '../../components/screen-title';
import { paths } from '../../config/paths';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { NegativeBalanceBanner } from '../../features/billing/components/negative-balance-banner';
import { useLiveDevices } from '../../features/devices/api/use-live-devices';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useReferenceData } from '../../lib/reference-data/use-reference-data';
import { SupportChatButton } from '../../features/support/components/support-chat-button';
import type { RouteHandle } from '../route-handle';
import { AccessNotice } from './access-notice';
import { PageError } from '../routes/page-error';
import { registerPageError } from '../routes/page-error-slot';
import { MainNav } from './main-nav';

// An account page that fails to open says so inside this frame (app/routes/page-error-slot.tsx).
registerPageError(PageError);

/**
 * The signed-in frame: header (menu button on small screens, notifications, the support chat,
 * language, colour scheme, user menu),
 * the sidebar (a drawer below 768 px), the page's title (from its route's handle) and the page. Pages render once the reference data has
 * loaded (docs/contract.md, "Product and areas"); until then a loader shows. Above the title, for holders of the billing module,
 * a warning while the organisation's balance is below zero.
 */
export function AccountLayout() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [drawerOpened, drawer] = useDisclosure(false);
  const { ready } = useReferenceData(user);
  // The page mounts in a deferred render of its own: the lists' last answer re-renders the frame at
  // once (a store update, never time-sliced), the page's first render then runs in slices that let
  // the browser paint and answer input between them, instead of one long task. `false` at first
  // even when the lists are already there (the server's preloads answered before the console
  // started): the frame and the page then commit one after the other, not in one long commit.
  const showPage = useDeferredValue(ready, false);
  useLiveDevices(ready && user.acl_modules.some((m) => DEVICE_VIEWING_MODULES.includes(m.slug)));
  // The page's title shows with the frame; the page itself waits for the reference data (docs/contract.md, "Product and areas").
  const { pathname } = useLocation();
  const title = useMatches()
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .filter((key) => key !== undefined)
    .at(-1);
  useDocumentTitle(title ? `${t(title)} · Kontrol` : 'Kontrol');
  const logout = () => {
    drawer.close();
    void navigate(paths.auth.logout);
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={drawerOpened}
              onClick={drawer.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('Open menu')}
            />
            <Text component={Link} to={paths.root} fw={700} size="lg" c="inherit" td="none">
              Kontrol
            </Text>
          </Group>
          {/* Tight on a phone: five controls and the menu share 375 px with the logo. */}
          <Group gap={6} wrap="nowrap">
            <NotificationBell />
            <SupportChatButton />
            <LanguageSwitch />
            <ColorSchemeToggle />
            <UserMenu user={user} onLogout={logout} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" visibleFrom="sm">
        {/* Native scrolling: Mantine's ScrollArea sets state from its refs as it mounts, which
            re-rendered the whole frame inside its first commit. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          <MainNav user={user} onLogout={logout} />
        </AppShell.Section>
      </AppShell.Navbar>

      <Drawer
        opened={drawerOpened}
        onClose={drawer.close}
        title={t('Main menu')}
        size="80%"
        hiddenFrom="sm"
        closeButtonProps={{ 'aria-label': t('Close menu') }}
      >
        <MainNav user={user} onNavigate={drawer.close} onLogout={logout} />
      </Drawer>

      <AppShell.Main>
        {/* Why the user is here, when they asked for a page of a module they do not hold. */}
        <AccessNotice />
        {/* Holders of the billing module: a warning while the balance is below zero. */}
        <NegativeBalanceBanner user={user} />
        {title && (
          <ScreenTitle key={pathname} mb="md">
            {t(title)}
          </ScreenTitle>
        )}
        {showPage ? <Outlet /> : <PageLoader inline />}
      </AppShell.Main>
    </AppShell>
  );
}

function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={t('Toggle colour scheme')}
      onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
    >
      <span aria-hidden="true">{computed === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}

/** A person's outline: the user menu's face on a phone. */
function UserIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4.4 3.6-8 8-8s8 3.6 8 8" strokeLinecap="round" />
    </svg>
  );
}

function UserMenu({ user, onLogout }: { user: AuthUser; onLogout: () => void }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* Named by the user's name at every width; on a phone only an icon shows, so the header
            never overflows (docs/console-shell.md). */}
        <UnstyledButton
          aria-label={user.name}
          title={user.name}
          px={{ base: 4, xs: 'xs' }}
          py={4}
          miw={34}
          mih={34}
          style={{ borderRadius: 4, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}
        >
          <Box component="span" hiddenFrom="xs" aria-hidden="true" style={{ display: 'inline-flex' }}>
            <UserIcon />
          </Box>
          <Text size="sm" fw={500} truncate maw={180} visibleFrom="xs" aria-hidden="true">
            {user.name}
          </Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.organisation.name}</Menu.Label>
        <Menu.Item component={Link} to={paths.account.profile}>
          {t('Profile')}
        </Menu.Item>
        <Menu.Item onClick={onLogout}>{t('Log out')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
