import type { AuthUser } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import type { ComponentType, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import '../lib/i18n';
import { ACCOUNT_ROUTE_ID } from '../lib/auth/use-current-user';
import { queryClient } from '../lib/query-client';
import { referenceKey } from '../lib/reference-data/resources';

/** The console's providers as `app/provider.tsx` gives them, Mantine in test mode (no transitions, no portals). */
export function renderWithProviders(children: ReactNode) {
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">{children}</MantineProvider>
    </QueryClientProvider>,
  );
}

/**
 * Account pages in a memory router opened at `url`, whose account route knows `user`, with the
 * reference lists (by name, e.g. `devices`) already in the cache as the account frame leaves them.
 * Resolves once the page has rendered: the account route's loader answers on the next tick.
 */
export async function renderAccountPages({
  url,
  routes,
  user,
  references = {},
  frame,
}: {
  url: string;
  /** The pages under `/account` (paths relative to it). */
  routes: RouteObject[];
  user: AuthUser;
  references?: Record<string, readonly unknown[]>;
  /** A layout around the pages (it renders an `<Outlet />`). */
  frame?: ComponentType;
}) {
  for (const [name, rows] of Object.entries(references)) queryClient.setQueryData(referenceKey(name), rows);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        ...(frame ? { Component: frame } : {}),
        children: routes,
      },
    ],
    { initialEntries: [url] },
  );
  const view = renderWithProviders(<RouterProvider router={router} />);
  await waitFor(
    () => {
      if (!view.container.querySelector(':not(style)')) throw new Error('The page has not rendered yet');
    },
    { timeout: 10_000 },
  );
  return { ...view, router };
}
