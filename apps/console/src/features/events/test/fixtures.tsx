import type { AuthUser, Device, DeviceEvent, DeviceEventTemplate } from '@kontrol/contracts';
import '../../../lib/i18n';
import { buildAuthUser } from '../../../test/server';
import { EventsList } from '../components/events-list';
import { EventAddPage } from '../routes/event-add-page';
import { EventPage } from '../routes/event-page';
import { renderAccountPages } from '../../../test/render';

export { buildDevice, buildDeviceEvent, buildDeviceEventTemplate } from '../../../test/entities';

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
  return renderAccountPages({
    url,
    user,
    references: {
      devices: references.devices ?? [],
      deviceEventTemplates: references.templates ?? [],
      deviceEvents: references.events ?? [],
    },
    routes: [
      { path: 'device_event_templates', Component: EventsList },
      { path: 'device_event_templates/events/add', Component: EventAddPage },
      { path: 'device_event_templates/events/:id', Component: EventPage },
    ],
  });
}
