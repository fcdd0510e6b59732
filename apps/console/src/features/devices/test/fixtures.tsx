import type { Address, AuthUser, Device, DeviceType, Room } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { DeviceAddPage } from '../routes/device-add-page';
import { DevicePage } from '../routes/device-page';
import { DevicesPage } from '../routes/devices-page';
import { GroupAddPage } from '../routes/group-add-page';
import { GroupPage } from '../routes/group-page';

const STAMP = '2026-11-01T09:00:00.000Z';

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

export function buildDeviceType(overrides: Partial<DeviceType> = {}): DeviceType {
  return {
    id: 1,
    slug: 'combi_oven',
    name: 'Пароконвектомат',
    telemetry: ['current', 'wash'],
    wash_interval_hours: 24,
    program_capacity: 100,
    ...overrides,
  };
}

export function buildAddress(overrides: Partial<Address> = {}): Address {
  return {
    id: 1,
    name: 'Тверская, 1',
    full_address: 'Москва, Тверская ул., 1',
    city: 'Москва',
    time_zone: 'Europe/Moscow',
    work_time: {
      mon: null,
      tue: null,
      wed: null,
      thu: null,
      fri: null,
      sat: null,
      sun: null,
    },
    latitude: null,
    longitude: null,
    image_url: null,
    rooms_count: 1,
    devices_count: 0,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function buildRoom(overrides: Partial<Room> = {}): Room {
  return {
    id: 1,
    name: 'Горячий цех',
    address_id: 1,
    floor: null,
    description: null,
    devices_count: 0,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function buildDevice(overrides: Partial<Device> = {}): Device {
  const device: Device = {
    id: 1,
    name: 'Печь 1',
    type_id: 1,
    room_id: 1,
    address_id: 1,
    serial_number: null,
    controller_id: null,
    template_id: null,
    is_smart: false,
    shift_start: null,
    wash_interval_hours: null,
    service_interval_days: null,
    next_service_date: null,
    notes: null,
    last_online: { last_utc: null },
    work_start: { date: null, start: null },
    has_credential: false,
    credential_issued_at: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
  return { ...device, is_smart: device.controller_id !== null || device.template_id !== null };
}

export interface References {
  devices?: Device[];
  types?: DeviceType[];
  addresses?: Address[];
  rooms?: Room[];
}

/**
 * The equipment routes inside a memory router whose account route knows `user`, with the
 * reference lists already in the cache as the account frame leaves them (SPEC §1).
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
