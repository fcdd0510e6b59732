import type { AuthUser, Device, DeviceEventTemplate, DeviceType } from '@kontrol/contracts';
import '../../../lib/i18n';
import { buildDeviceType } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { TemplatesList } from '../components/templates-list';
import { TemplateAddPage } from '../routes/template-add-page';
import { TemplatePage } from '../routes/template-page';
import { renderAccountPages } from '../../../test/render';

export { buildDevice, buildDeviceEventTemplate, buildDeviceType } from '../../../test/entities';

export interface References {
  templates?: DeviceEventTemplate[];
  devices?: Device[];
  types?: DeviceType[];
}

/**
 * The templates screens inside a memory router whose account route knows `user`, with the
 * reference lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderTemplates(
  url: string,
  references: References = {},
  user: AuthUser = buildAuthUser(['device_event_template', 'devices']),
) {
  return renderAccountPages({
    url,
    user,
    references: {
      deviceEventTemplates: references.templates ?? [],
      devices: references.devices ?? [],
      deviceTypes: references.types ?? [buildDeviceType()],
    },
    routes: [
      { path: 'device_event_templates', Component: TemplatesList },
      { path: 'device_event_templates/add', Component: TemplateAddPage },
      { path: 'device_event_templates/:id', Component: TemplatePage },
    ],
  });
}
