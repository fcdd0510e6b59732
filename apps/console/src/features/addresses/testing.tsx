import {
  DEFAULT_TIME_ZONE,
  DEFAULT_WORK_TIME,
  type Address,
  type AuthUser,
  type Device,
  type DeviceType,
  type Room,
} from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, vi } from 'vitest';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { buildAuthUser, server } from '../../test/server';
import { ACCOUNT_ROUTE_ID, useCurrentUser } from '../../lib/auth/use-current-user';
import { referenceKey } from '../../lib/reference-data/resources';
import { useReferenceData } from '../../lib/reference-data/use-reference-data';
import { AddressAddPage } from './routes/address-add-page';
import { AddressPage } from './routes/address-page';
import { AddressesPage } from './routes/addresses-page';
import { RoomAddPage } from './routes/room-add-page';
import { RoomPage } from './routes/room-page';

/** Test fixtures and a harness for the addresses screens (not part of the app bundle). */

// Whole forms render in these tests; on a busy CI machine the test DOM needs more than the 1 s / 5 s defaults.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });
// Unmount first, then forget the cache: cleared under mounted screens, lists would load again.
afterEach(() => {
  cleanup();
  queryClient.clear();
});
let nextId = 100;
const stamp = '2026-11-01T09:00:00.000Z';

export function buildAddress(overrides: Partial<Address> = {}): Address {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Кафе ${id}`,
    full_address: `ул. Ленина, ${id}`,
    city: 'Москва',
    time_zone: DEFAULT_TIME_ZONE,
    work_time: DEFAULT_WORK_TIME,
    latitude: null,
    longitude: null,
    image_url: null,
    rooms_count: 0,
    devices_count: 0,
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function buildRoom(overrides: Partial<Room> & { address_id: number }): Room {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Кухня ${id}`,
    floor: null,
    description: null,
    devices_count: 0,
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function buildDevice(overrides: Partial<Device> & { room_id: number; address_id: number }): Device {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Печь ${id}`,
    type_id: 1,
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
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export const combiOven: DeviceType = {
  id: 1,
  slug: 'combi_oven',
  name: 'Пароконвектомат',
  telemetry: ['current'],
  wash_interval_hours: 24,
  program_capacity: 100,
};

/** The account frame's part that matters here: it watches the reference lists, as the real one does. */
function Frame() {
  useReferenceData(useCurrentUser());
  return <Outlet />;
}

/** Shows where the router went, for routes outside this feature (a device's page). */
function Elsewhere() {
  const { pathname } = useLocation();
  return <p>elsewhere: {pathname}</p>;
}

/**
 * Renders the addresses screens at `url` inside a memory router whose account route knows `user`,
 * with the reference lists already loaded, as the account frame guarantees (docs/contract.md, "Product and areas").
 */
export function renderAddresses(
  url: string,
  {
    user = buildAuthUser(['addresses', 'devices']),
    addresses = [],
    rooms = [],
    devices = [],
    deviceTypes = [combiOven],
  }: {
    user?: AuthUser;
    addresses?: Address[];
    rooms?: Room[];
    devices?: Device[];
    deviceTypes?: DeviceType[];
  } = {},
) {
  queryClient.setQueryData(referenceKey('addresses'), addresses);
  queryClient.setQueryData(referenceKey('rooms'), rooms);
  queryClient.setQueryData(referenceKey('devices'), devices);
  queryClient.setQueryData(referenceKey('deviceTypes'), deviceTypes);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        Component: Frame,
        children: [
          { path: 'addresses', Component: AddressesPage },
          { path: 'addresses/add', Component: AddressAddPage },
          { path: 'addresses/room/add', Component: RoomAddPage },
          { path: 'addresses/room/:roomId', Component: RoomPage },
          { path: 'addresses/:addressId', Component: AddressPage },
          { path: '*', Component: Elsewhere },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}

/**
 * Answers the two list calls of docs/contract.md, "States and transitions" with `lists()` (read at each call) and counts them: after a
 * save or a deletion each must be asked for once more, without cache.
 */
export function serveLists(lists: () => { addresses: Address[]; rooms: Room[] }) {
  const calls = { addresses: 0, rooms: 0 };
  server.use(
    http.get('/api/addresses/', () => {
      calls.addresses += 1;
      return HttpResponse.json({ data: lists().addresses });
    }),
    http.get('/api/rooms/', () => {
      calls.rooms += 1;
      return HttpResponse.json({ data: lists().rooms });
    }),
  );
  return calls;
}
