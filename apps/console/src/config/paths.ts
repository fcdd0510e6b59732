import type { ModuleSlug } from '@kontrol/contracts';

/** Every URL of the console, in one place (STYLE rule 5). */
export const paths = {
  root: '/',
  auth: {
    login: '/auth/login',
    register: '/auth/register',
    forgotPassword: '/auth/forgot-password',
    resetPassword: '/auth/reset-password',
    logout: '/auth/logout',
  },
  account: {
    dashboard: '/account/dashboard',
    noAccess: '/account/no_access',
    profile: '/account/profile',
    addresses: {
      list: '/account/addresses',
      add: '/account/addresses/add',
      detail: (id: number) => `/account/addresses/${id}`,
      /** The room add page; with an address, that address is preselected (`?address_id=`). */
      roomAdd: (addressId?: number) =>
        addressId === undefined
          ? '/account/addresses/room/add'
          : `/account/addresses/room/add?${new URLSearchParams({ address_id: String(addressId) }).toString()}`,
      room: (id: number) => `/account/addresses/room/${id}`,
    },
    devices: {
      list: '/account/devices',
      add: '/account/devices/add',
      /** A device's page; `tab` opens one of its views (`connection` by default). */
      detail: (id: number, tab?: 'connection' | 'service' | 'settings') =>
        tab === undefined ? `/account/devices/${id}` : `/account/devices/${id}?tab=${tab}`,
      /** The groups list: a view of the devices list (docs/places-and-equipment.md). */
      groups: '/account/devices?view=groups',
      groupAdd: '/account/devices/groups/add',
      group: (id: number) => `/account/devices/groups/${id}`,
    },
  },
} as const;

/** Where each module's sidebar entry leads (SPEC §2 account area). */
export const modulePaths: Record<ModuleSlug, string> = {
  dashboard: '/account/dashboard',
  telemetry: '/account/telemetry',
  requests: '/account/requests',
  device_event_template: '/account/device_event_templates',
  recipes: '/account/recipes',
  addresses: '/account/addresses',
  devices: '/account/devices',
  users: '/account/users',
  settings: '/account/settings',
  billing: '/account/billing',
};

/** Account pages open to every signed-in user, whatever modules they hold. */
export const pathsWithoutModule: readonly string[] = [paths.account.noAccess, paths.account.profile];

/** `/auth/login?redirect=…`: where to go after signing in. */
export function loginWithRedirect(intended: string): string {
  return `${paths.auth.login}?${new URLSearchParams({ redirect: intended }).toString()}`;
}
