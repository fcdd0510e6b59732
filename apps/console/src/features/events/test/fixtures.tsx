import type { AuthUser, Device, DeviceEvent, DeviceEventTemplate } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { EventsList } from '../components/events-list';
import { EventAddPage } from '../routes/event-add-page';
import { EventPage } from '../routes/event-page';

export { buildDevice, buildDeviceEvent, buildDeviceEventTemplate } from '../../../test/entities';

// The event page holds several Mantine forms; on a busy machine a second is not always enough.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Mantine reads here: the combobox scrolls its active option into view, and
// autosizing text areas listen to font loading.
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

export interface References {
  devices?: Device[];
  templates?: DeviceEventTemplate[];
  /** The events loaded on entry (docs/contract.md, "Product and areas"). */
  events?: DeviceEvent[];
}

/**
 * The events screens inside a memory router whose account route knows `user`, with the
 * reference lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderEvents(
  url: string,
  references: References = {},
  user: AuthUser = buildAuthUser(['device_event_template', 'devices']),
) {
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('deviceEventTemplates'), references.templates ?? []);
  queryClient.setQueryData(referenceKey('deviceEvents'), references.events ?? []);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'device_event_templates', Component: EventsList },
          { path: 'device_event_templates/events/add', Component: EventAddPage },
          { path: 'device_event_templates/events/:id', Component: EventPage },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      {/* Test mode: no transitions, no portals. */}
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  // The account route's loader answers on the next tick; then the page is there.
  await waitFor(
    () => {
      if (!view.container.querySelector(':not(style)')) throw new Error('The page has not rendered yet');
    },
    { timeout: 10_000 },
  );
  return { ...view, router };
}
