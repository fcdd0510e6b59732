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

configure({ asyncUtilTimeout: 5_000 });

/**
 * A stand-in for the browser's EventSource (jsdom has none): the console's live stream opens it,
 * and a test sends it server events with {@link FakeEventSource.emit}.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  private readonly listeners = new Map<string, Set<(event: MessageEvent<string>) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** Delivers a server event `type` with `data` (JSON) to the listeners. */
  emit(type: string, data: unknown) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** The stream the console has open now. */
  static current(): FakeEventSource {
    const open = FakeEventSource.instances.filter((source) => source.readyState !== FakeEventSource.CLOSED);
    const last = open.at(-1);
    if (!last) throw new Error('No live stream is open');
    return last;
  }
}

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
