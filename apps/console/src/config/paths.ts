import type { ModuleSlug } from '@kontrol/contracts';

/** Every URL of the console, in one place. */
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
    /** The notifications page, for holders of `telemetry`. */
    notify: '/account/notify',
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
      detail: (
        id: number,
        tab?: 'connection' | 'dashboard' | 'problems' | 'recipes' | 'service' | 'settings',
      ) => (tab === undefined ? `/account/devices/${id}` : `/account/devices/${id}?tab=${tab}`),
      /** The groups list: a view of the devices list (docs/places-and-equipment.md). */
      groups: '/account/devices?view=groups',
      groupAdd: '/account/devices/groups/add',
      group: (id: number) => `/account/devices/groups/${id}`,
    },
    /** Current templates ("Шаблоны тока") and device events (docs/events.md). */
    deviceEventTemplates: {
      list: '/account/device_event_templates',
      add: '/account/device_event_templates/add',
      detail: (id: number) => `/account/device_event_templates/${id}`,
      /** The events tab of the list page, optionally filtered (`?device=`, `?template=`). */
      events: (filter: { device?: number; template?: number } = {}) => {
        const query = new URLSearchParams({ tab: 'events' });
        if (filter.device !== undefined) query.set('device', String(filter.device));
        if (filter.template !== undefined) query.set('template', String(filter.template));
        return `/account/device_event_templates?${query.toString()}`;
      },
      /** The manual event form; with a device, that device is preselected (`?device=`). */
      eventAdd: (deviceId?: number) =>
        deviceId === undefined
          ? '/account/device_event_templates/events/add'
          : `/account/device_event_templates/events/add?device=${deviceId}`,
      event: (id: number) => `/account/device_event_templates/events/${id}`,
    },
    /** Recipes and recipe sets (docs/contract.md, "Screens and routes"). */
    recipes: {
      list: '/account/recipes',
      add: '/account/recipes/add',
      detail: (id: number) => `/account/recipes/${id}`,
      /** The sets list: a view of the recipes page, as the groups are of the devices page. */
      sets: '/account/recipes?view=sets',
      setAdd: '/account/recipes/sets/add',
      set: (id: number) => `/account/recipes/sets/${id}`,
    },
    /** Complaints (the contract's "requests", the API's alerts). */
    requests: {
      list: '/account/requests',
      add: '/account/requests/add',
      detail: (id: number) => `/account/requests/${id}`,
    },
    /** Users and access roles. */
    users: {
      list: '/account/users',
      add: '/account/users/add',
      detail: (id: number) => `/account/users/${id}`,
      /** The roles list: a view of the users page. */
      roles: '/account/users?view=roles',
      roleAdd: '/account/users/roles/add',
      role: (id: number) => `/account/users/roles/${id}`,
    },
    /** Settings: integrations (docs/integrations.md). */
    settings: {
      list: '/account/settings',
      add: '/account/settings/add',
      detail: (id: number) => `/account/settings/${id}`,
      /** The page that shows a Telegram link and waits for the chat to bind. */
      telegram: (token: string) => `/account/settings/integrations/telegram/${encodeURIComponent(token)}`,
    },
    /** The billing page (`tab`: `balance` by default, `history` or `organisation`; docs/billing.md). */
    billing: (tab?: BillingTab) =>
      tab === undefined || tab === 'balance' ? '/account/billing' : `/account/billing?tab=${tab}`,
    /**
     * The telemetry page (`tab`: `telemetry` by default, `temperature` or `notifications`); with
     * devices and a period it opens their charts over that period (docs/telemetry.md, "The
     * telemetry page").
     */
    telemetry: (view: TelemetryView = {}) => {
      const query = new URLSearchParams();
      if (view.tab && view.tab !== 'telemetry') query.set('tab', view.tab);
      if (view.devices && view.devices.length > 0) query.set('devices', view.devices.join(','));
      if (view.start !== undefined) query.set('start', isoMoment(view.start));
      if (view.finish !== undefined) query.set('finish', isoMoment(view.finish));
      const search = query.toString();
      return search ? `/account/telemetry?${search}` : '/account/telemetry';
    },
  },
} as const;

/** The tabs of the billing page (docs/contract.md, "Screens and routes": balance, history, organisation). */
export type BillingTab = 'balance' | 'history' | 'organisation';

/**
 * What a link to the telemetry page opens: a tab, and on the telemetry tab devices and a period
 * (the temperature report's tab takes the devices).
 */
export interface TelemetryView {
  tab?: 'telemetry' | 'temperature' | 'notifications';
  devices?: readonly number[];
  /** Epoch milliseconds or a Date; written as ISO 8601 in UTC (`2026-11-22T07:00:00Z`). */
  start?: number | Date;
  finish?: number | Date;
}

/** A moment as the telemetry page's query string holds it: ISO 8601 in UTC, to the second. */
export function isoMoment(moment: number | Date): string {
  return new Date(moment).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Where each module's sidebar entry leads (docs/contract.md, "Screens and routes" account area). */
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

/**
 * Account pages whose address holds no module's slug, and the module each needs: the rule of docs/console-shell.md
 * (the address contains a held slug) could never let them open.
 */
export const pathModules: Readonly<Record<string, ModuleSlug>> = { [paths.account.notify]: 'telemetry' };

/** Account pages open to every signed-in user, whatever modules they hold. */
export const pathsWithoutModule: readonly string[] = [paths.account.noAccess, paths.account.profile];

/** `/auth/login?redirect=…`: where to go after signing in. */
export function loginWithRedirect(intended: string): string {
  return `${paths.auth.login}?${new URLSearchParams({ redirect: intended }).toString()}`;
}
