import { DEFAULT_USER_SETTINGS, type UserSettings } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser, server } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../../lib/auth/use-current-user';
import { ProfilePage } from './profile-page';

afterEach(() => queryClient.clear());

describe('the profile page', { timeout: 30_000 }, () => {
  it('has the signed-in user’s own notification settings, saved to their own id', async () => {
    let posted: UserSettings | undefined;
    server.use(
      http.get('/api/users/7/settings', () =>
        HttpResponse.json({ data: { ...DEFAULT_USER_SETTINGS, locale: 'ru' } satisfies UserSettings }),
      ),
      http.post('/api/users/7/settings', async ({ request }) => {
        posted = (await request.json()) as UserSettings;
        return HttpResponse.json({ data: posted });
      }),
    );
    const user = buildAuthUser(['recipes'], { id: 7 });
    const router = createMemoryRouter(
      [
        {
          id: ACCOUNT_ROUTE_ID,
          path: '/account',
          loader: () => ({ user }),
          HydrateFallback: () => null,
          children: [{ path: 'profile', Component: ProfilePage }],
        },
      ],
      { initialEntries: ['/account/profile'] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <MantineProvider env="test">
          <RouterProvider router={router} />
        </MantineProvider>
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Уведомления' });
    await userEvent.click(await within(section).findByRole('checkbox', { name: /^E-mail/ }));
    await userEvent.click(within(section).getByRole('button', { name: 'Сохранить настройки уведомлений' }));
    await waitFor(() => expect(posted?.channels).toEqual({ web: true, email: false, telegram: true }));
    expect(await within(section).findByText('Сохранено.')).toBeInTheDocument();
  });
});
