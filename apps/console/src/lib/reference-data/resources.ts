import {
  ADMIN_ROLE_NAMES,
  DEVICE_TYPE_LABELS,
  isBuiltInAdminRole,
  LOGOUT_STATUSES,
  REFERENCE_LISTS,
  REFERENCE_ROLES,
  type AclRole,
  type DeviceType,
  type Locale,
  type ModuleSlug,
  type ReferenceListName,
} from '@kontrol/contracts';
import { takeEarlyResponse } from '../../early/early-responses';
import { apiClient } from '../api-client';

/** The loading flags of docs/contract.md, "States and transitions", one per resource. */
export type LoadingFlag =
  | 'addresses'
  | 'rooms'
  | 'deviceTypes'
  | 'devices'
  | 'device_events'
  | 'device_event_templates'
  | 'recipes'
  | 'recipesSets'
  | 'telemetry'
  | 'users'
  | 'acl';

export interface ReferenceResource {
  /** Query key suffix and log name. */
  name: string;
  flag: LoadingFlag;
  /** Only users holding one of these modules load it: anyone else would get 403 for nothing. */
  modules: readonly ModuleSlug[];
  /** Account pages wait for it (docs/contract.md, "Product and areas"); the others are only requested on entry. */
  gates: boolean;
  /** docs/contract.md, "States and transitions": addresses and rooms are cached; a load is skipped unless a refresh is forced. */
  cached: boolean;
  load: (signal: AbortSignal) => Promise<unknown>;
  /**
   * The list as the interface language names its items, for lists whose names the console knows
   * in both languages: the list was read in the language of its request, which the user may have
   * switched since (and a preloaded list follows the browser's language, not the console's).
   */
  localise?: (items: readonly unknown[], locale: Locale) => readonly unknown[];
}

/** Device types named by their slug in the interface language (a type the console does not know keeps its name). */
export function localiseDeviceTypes(types: readonly DeviceType[], locale: Locale): DeviceType[] {
  return types.map((type) => {
    const label = (DEVICE_TYPE_LABELS as Partial<typeof DEVICE_TYPE_LABELS>)[type.slug];
    return label ? { ...type, name: label[locale] } : type;
  });
}

/** The built-in administrator role, while it keeps the name it was created with, in the interface language. */
export function localiseRoles(roles: readonly AclRole[], locale: Locale): AclRole[] {
  return roles.map((role) => (isBuiltInAdminRole(role) ? { ...role, name: ADMIN_ROLE_NAMES[locale] } : role));
}

/** Answers after which the API client must see the request itself: it signs the user out (docs/contract.md, "States and transitions"). */
const SESSION_ENDED: ReadonlySet<number> = new Set(LOGOUT_STATUSES);

/**
 * The body of `GET /api{url}`: the answer to the request the server started with the page
 * (src/early) when there is one, else the API client's. An early answer that failed counts as this
 * load failing (docs/contract.md, "Error catalogue": logged, nothing shown), except a lost session or a request that never got
 * an answer, which the client asks again so that its own handling applies.
 */
async function getBody<T>(url: string, signal: AbortSignal): Promise<T> {
  const early = await takeEarlyResponse(url);
  if (early?.ok) return early.body as T;
  if (early?.status !== undefined && !SESSION_ENDED.has(early.status)) {
    throw new Error(`GET /api${url} answered ${early.status}`);
  }
  return (await apiClient.get<T>(url, { signal })).data;
}

const getList = (name: ReferenceListName) => async (signal: AbortSignal) =>
  (await getBody<{ data: unknown }>(REFERENCE_LISTS[name].url, signal)).data;

/**
 * The reference data every account page may need, as docs/contract.md, "Product and areas" lists it. List responses are read
 * from `data.data`; device types from `data` inside that (docs/contract.md, "HTTP calls").
 */
export const referenceResources: readonly ReferenceResource[] = [
  {
    name: 'deviceTypes',
    flag: 'deviceTypes',
    modules: REFERENCE_LISTS.deviceTypes.modules,
    gates: true,
    cached: false,
    load: async (signal) =>
      (await getBody<{ data: { data: unknown } }>(REFERENCE_LISTS.deviceTypes.url, signal)).data.data,
    localise: (items, locale) => localiseDeviceTypes(items as DeviceType[], locale),
  },
  {
    name: 'devices',
    flag: 'devices',
    modules: REFERENCE_LISTS.devices.modules,
    gates: true,
    cached: false,
    load: getList('devices'),
  },
  {
    name: 'addresses',
    flag: 'addresses',
    modules: REFERENCE_LISTS.addresses.modules,
    gates: true,
    cached: true,
    load: getList('addresses'),
  },
  {
    name: 'rooms',
    flag: 'rooms',
    modules: REFERENCE_LISTS.rooms.modules,
    gates: true,
    cached: true,
    load: getList('rooms'),
  },
  {
    name: 'deviceEventTemplates',
    flag: 'device_event_templates',
    modules: REFERENCE_LISTS.deviceEventTemplates.modules,
    gates: true,
    cached: false,
    load: getList('deviceEventTemplates'),
  },
  {
    name: 'recipes',
    flag: 'recipes',
    modules: REFERENCE_LISTS.recipes.modules,
    gates: true,
    cached: false,
    load: getList('recipes'),
  },
  {
    name: 'recipesSets',
    flag: 'recipesSets',
    modules: REFERENCE_LISTS.recipesSets.modules,
    gates: true,
    cached: false,
    load: getList('recipesSets'),
  },
  {
    name: 'aclModules',
    flag: 'acl',
    modules: REFERENCE_LISTS.aclModules.modules,
    gates: true,
    cached: false,
    load: getList('aclModules'),
  },
  {
    // docs/contract.md, "Roles and permissions": the roles list asks for page 1 with both flags set.
    name: 'aclRoles',
    flag: 'acl',
    modules: [REFERENCE_ROLES.module],
    gates: true,
    cached: false,
    load: async (signal) =>
      (await apiClient.post<{ data: unknown }>(REFERENCE_ROLES.url, REFERENCE_ROLES.body, { signal })).data
        .data,
    localise: (items, locale) => localiseRoles(items as AclRole[], locale),
  },
  {
    name: 'deviceEvents',
    flag: 'device_events',
    modules: REFERENCE_LISTS.deviceEvents.modules,
    gates: false,
    cached: false,
    load: getList('deviceEvents'),
  },
  {
    // Not in docs/contract.md, "Product and areas"'s list: read on entry, but no page waits for it.
    name: 'users',
    flag: 'users',
    modules: REFERENCE_LISTS.users.modules,
    gates: false,
    cached: false,
    load: getList('users'),
  },
];

export const referenceKey = (name: string) => ['reference', name] as const;
