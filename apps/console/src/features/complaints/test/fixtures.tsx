import type { Address, AuthUser, Device, User } from '@kontrol/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../../lib/i18n';
import { buildAddress, buildDevice, buildUser } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { ComplaintAddPage } from '../routes/complaint-add-page';
import { ComplaintPage } from '../routes/complaint-page';
import { ComplaintsPage } from '../routes/complaints-page';
import { renderAccountPages } from '../../../test/render';

export {
  buildAddress,
  buildComplaint,
  buildComplaintEvent,
  buildDevice,
  buildUser,
} from '../../../test/entities';

/** An access role holding complaints: its holders may be assigned one. */
const KITCHEN = {
  id: 2,
  name: 'Кухня',
  modules: [{ id: 3, slug: 'requests' as const, name: 'requests', is_client_system: true }],
};

/**
 * The organisation's places and people: two addresses, three devices, and four users — two who may
 * be assigned complaints, one disabled, one whose role lacks complaints.
 */
export const TVERSKAYA = buildAddress({ id: 1, name: 'Тверская, 1' });
export const ARBAT = buildAddress({ id: 2, name: 'Арбат, 10' });
export const OVEN = buildDevice({ id: 1, name: 'Печь 1', address_id: 1 });
export const FRYER = buildDevice({ id: 2, name: 'Фритюрница', address_id: 1 });
export const DISHWASHER = buildDevice({ id: 3, name: 'Посудомойка', address_id: 2 });
export const ANNA = buildUser({ id: 1, name: 'Анна Повар', acl_role_id: 2, acl_role: KITCHEN });
export const BORIS = buildUser({ id: 2, name: 'Борис Техник', acl_role_id: 2, acl_role: KITCHEN });
export const GONE = buildUser({
  id: 3,
  name: 'Уволенный',
  acl_role_id: 2,
  acl_role: KITCHEN,
  disabled: true,
});
/** buildUser's role holds recipes only. */
export const BAKER = buildUser({ id: 4, name: 'Пекарь' });

export interface References {
  devices?: Device[];
  addresses?: Address[];
  users?: User[];
}

/**
 * The complaints screens inside a memory router whose account route knows `user`, with the
 * reference lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderRequests(
  url: string,
  references: References = {},
  user: AuthUser = buildAuthUser(['requests', 'devices', 'addresses']),
) {
  return renderAccountPages({
    url,
    user,
    references: {
      devices: references.devices ?? [OVEN, FRYER, DISHWASHER],
      addresses: references.addresses ?? [TVERSKAYA, ARBAT],
      users: references.users ?? [ANNA, BORIS, GONE, BAKER],
    },
    routes: [
      { path: 'requests', Component: ComplaintsPage },
      { path: 'requests/add', Component: ComplaintAddPage },
      { path: 'requests/:id', Component: ComplaintPage },
    ],
  });
}

/** Chooses `option` in a Mantine select. */
export async function choose(combobox: HTMLElement, option: string | RegExp) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** A paged answer as the API gives it. */
export function paged<T>(data: T[], page = 1, lastPage = 1) {
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: page,
      from: data.length > 0 ? 1 : null,
      last_page: lastPage,
      path: '/api/alerts',
      per_page: 25,
      to: data.length > 0 ? data.length : null,
      total: data.length,
    },
  };
}
