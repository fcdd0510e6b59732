import type { AuthUser } from '@kontrol/contracts';
import '../../../lib/i18n';
import { buildAuthUser } from '../../../test/server';
import { renderAccountPages } from '../../../test/render';
import { NotificationBell } from '../components/notification-bell';

export { buildNotification } from '../../../test/entities';
export { FakeEventSource } from '../../../test/fake-event-source';

/**
 * The bell in a header-like page of the account area whose user is `user` (any modules: a user
 * without any still has their own notifications), beside a stand-in telemetry page.
 */
export async function renderBell(user: AuthUser = buildAuthUser([])) {
  return renderAccountPages({
    url: '/account/profile',
    user,
    routes: [
      { path: 'profile', Component: () => <NotificationBell /> },
      { path: 'telemetry', Component: () => <h1>Телеметрия</h1> },
    ],
  });
}
