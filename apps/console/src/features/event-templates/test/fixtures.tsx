import type { AuthUser, Device, DeviceEventTemplate, DeviceType } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildDeviceType } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { TemplatesList } from '../components/templates-list';
import { TemplateAddPage } from '../routes/template-add-page';
import { TemplatePage } from '../routes/template-page';

export { buildDevice, buildDeviceEventTemplate, buildDeviceType } from '../../../test/entities';

// The editor is a big Mantine form; on a busy machine a second is not always enough.
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
  queryClient.setQueryData(referenceKey('deviceEventTemplates'), references.templates ?? []);
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('deviceTypes'), references.types ?? [buildDeviceType()]);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'device_event_templates', Component: TemplatesList },
          { path: 'device_event_templates/add', Component: TemplateAddPage },
          { path: 'device_event_templates/:id', Component: TemplatePage },
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
