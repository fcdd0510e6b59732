import {
  DEFAULT_DEVICE_LIMITS,
  type Address,
  type AuthUser,
  type Device,
  type DeviceEventTemplate,
  type DeviceType,
  type Room,
} from '@kontrol/contracts';
import { http, HttpResponse } from 'msw';
import type { ComponentType } from 'react';
import '../../../lib/i18n';
import { buildAddress, buildDeviceType, buildRoom } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { DeviceAddPage } from '../routes/device-add-page';
import { DevicePage } from '../routes/device-page';
import { DevicesPage } from '../routes/devices-page';
import { GroupAddPage } from '../routes/group-add-page';
import { GroupPage } from '../routes/group-page';
import { renderAccountPages } from '../../../test/render';

export {
  buildAddress,
  buildDevice,
  buildDeviceEvent,
  buildDeviceEventTemplate,
  buildDeviceType,
  buildRoom,
} from '../../../test/entities';

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
  /** The device page to route to: the app's composition with other features' tabs, for example. */
  devicePage: ComponentType = DevicePage,
) {
  return renderAccountPages({
    url,
    user,
    references: {
      devices: references.devices ?? [],
      deviceTypes: references.types ?? [buildDeviceType()],
      addresses: references.addresses ?? [buildAddress()],
      rooms: references.rooms ?? [buildRoom()],
      deviceEventTemplates: references.templates ?? [],
    },
    routes: [
      { path: 'devices', Component: DevicesPage },
      { path: 'devices/add', Component: DeviceAddPage },
      { path: 'devices/groups/add', Component: GroupAddPage },
      { path: 'devices/groups/:id', Component: GroupPage },
      { path: 'devices/:id', Component: devicePage },
    ],
  });
}
