import type { AuthUser } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { NotificationBell } from '../components/notification-bell';

export { buildNotification } from '../../../test/entities';
export { FakeEventSource } from '../../../test/fake-event-source';

configure({ asyncUtilTimeout: 5_000 });

/**
 * The bell in a header-like page of the account area whose user is `user` (any modules: a user
 * without any still has their own notifications), beside a stand-in telemetry page.
 */
export async function renderBell(user: AuthUser = buildAuthUser([])) {
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'profile', Component: () => <NotificationBell /> },
          { path: 'telemetry', Component: () => <h1>Телеметрия</h1> },
        ],
      },
    ],
    { initialEntries: ['/account/profile'] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  await waitFor(
    () => {
      if (!view.container.querySelector(':not(style)')) throw new Error('The page has not rendered yet');
    },
    { timeout: 10_000 },
  );
  return { ...view, router };
}
