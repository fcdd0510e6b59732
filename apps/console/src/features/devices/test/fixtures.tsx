import {
  DEFAULT_DEVICE_LIMITS,
  type Address,
  type AuthUser,
  type Device,
  type DeviceEventTemplate,
  type DeviceType,
  type Room,
} from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAddress, buildDeviceType, buildRoom } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { DeviceAddPage } from '../routes/device-add-page';
import { DevicePage } from '../routes/device-page';
import { DevicesPage } from '../routes/devices-page';
import { GroupAddPage } from '../routes/group-add-page';
import { GroupPage } from '../routes/group-page';

export {
  buildAddress,
  buildDevice,
  buildDeviceEvent,
  buildDeviceEventTemplate,
  buildDeviceType,
  buildRoom,
} from '../../../test/entities';

// These screens render big Mantine forms; on a busy machine a second is not always enough.
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

/** `GET /api/devices/{id}/limits` of a device within its limits: the connection tab asks for it. */
export const withinLimits = http.get('/api/devices/:id/limits', () =>
  HttpResponse.json({
    data: {
      limits: {
        connections: DEFAULT_DEVICE_LIMITS.maxConnections,
        in_flight: DEFAULT_DEVICE_LIMITS.maxInFlight,
        samples_per_second: DEFAULT_DEVICE_LIMITS.samplesPerSecond,
        burst_samples: DEFAULT_DEVICE_LIMITS.burstSamples,
        samples_per_day: DEFAULT_DEVICE_LIMITS.samplesPerDay,
      },
      days: [],
    },
  }),
);

export interface References {
  devices?: Device[];
  types?: DeviceType[];
  addresses?: Address[];
  rooms?: Room[];
  /** The current templates (read only by a user holding `device_event_template`). */
  templates?: DeviceEventTemplate[];
}

/**
 * The equipment routes inside a memory router whose account route knows `user`, with the
 * reference lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderEquipment(
  url: string,
  references: References = {},
  user: AuthUser = buildAuthUser(['devices', 'addresses']),
) {
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('deviceTypes'), references.types ?? [buildDeviceType()]);
  queryClient.setQueryData(referenceKey('addresses'), references.addresses ?? [buildAddress()]);
  queryClient.setQueryData(referenceKey('rooms'), references.rooms ?? [buildRoom()]);
  queryClient.setQueryData(referenceKey('deviceEventTemplates'), references.templates ?? []);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'devices', Component: DevicesPage },
          { path: 'devices/add', Component: DeviceAddPage },
          { path: 'devices/groups/add', Component: GroupAddPage },
          { path: 'devices/groups/:id', Component: GroupPage },
          { path: 'devices/:id', Component: DevicePage },
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
