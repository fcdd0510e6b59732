import type { AclModule, AclRole, AuthUser, User } from '@kontrol/contracts';
import { DEFAULT_USER_SETTINGS, MODULE_SLUGS, type UserSettings } from '@kontrol/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../../lib/i18n';
import { buildAclRole, buildUser } from '../../../test/entities';
import { buildAuthUser, pageOf } from '../../../test/server';
import { RoleAddPage } from '../routes/role-add-page';
import { RolePage } from '../routes/role-page';
import { UserAddPage } from '../routes/user-add-page';
import { UserPage } from '../routes/user-page';
import { UsersPage } from '../routes/users-page';
import { renderAccountPages } from '../../../test/render';

export { buildAclRole, buildUser } from '../../../test/entities';
export { buildAuthUser } from '../../../test/server';

/** The client-system modules as GET /api/acl/modules lists them: ids 1… in the sidebar's order. */
export const MODULES: AclModule[] = MODULE_SLUGS.map((slug, index) => ({
  id: index + 1,
  slug,
  name: slug,
  is_client_system: true,
}));
export const moduleOf = (slug: AclModule['slug']) => MODULES.find((module) => module.slug === slug)!;

/** The organisation's roles: the built-in administrators' role and «Повара» (recipes). */
export const ADMIN_ROLE = buildAclRole({
  id: 10,
  name: 'Администраторы',
  is_admin_role: true,
  modules: MODULES,
});
export const COOKS = buildAclRole({ id: 1, name: 'Повара', modules: [moduleOf('recipes')] });

/** The signed-in admin (user 1) holding the administrators' role. */
export const ADMIN: AuthUser = buildAuthUser(MODULE_SLUGS, {
  id: 1,
  name: 'Анна Повар',
  isAdmin: true,
  role: 'admin',
  acl_role: { id: 10, name: 'Администраторы' },
});
/** The same user as the users list shows her. */
export const ADMIN_ROW: User = buildUser({
  id: 1,
  name: 'Анна Повар',
  email: 'anna@example.test',
  role: 'admin',
  acl_role_id: 10,
  acl_role: { id: 10, name: 'Администраторы', modules: MODULES },
});
/** A regular user with the users module (who may look, not change). */
export const REGULAR: AuthUser = buildAuthUser(['users', 'recipes'], {
  id: 2,
  name: 'Борис Су-шеф',
  email: 'boris@example.test',
  acl_role: { id: 1, name: 'Повара' },
});

export const SETTINGS: UserSettings = { ...DEFAULT_USER_SETTINGS, locale: 'ru' };

export interface References {
  users?: User[];
  roles?: AclRole[];
  modules?: AclModule[];
}

/** A paged answer (`{data, links, meta}`) holding `data` as page `current` of `last`. */
export const page = pageOf;

/**
 * The users screens inside a memory router whose account route knows `user`, with the reference
 * lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderUsers(url: string, references: References = {}, user: AuthUser = ADMIN) {
  return renderAccountPages({
    url,
    user,
    references: {
      users: references.users ?? [ADMIN_ROW],
      aclRoles: references.roles ?? [ADMIN_ROLE, COOKS],
      aclModules: references.modules ?? MODULES,
    },
    routes: [
      { path: 'users', Component: UsersPage },
      { path: 'users/add', Component: UserAddPage },
      { path: 'users/roles/add', Component: RoleAddPage },
      { path: 'users/roles/:id', Component: RolePage },
      { path: 'users/:id', Component: UserPage },
    ],
  });
}

/** Chooses `option` in a Mantine select. */
export async function choose(combobox: HTMLElement, option: string | RegExp) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}
