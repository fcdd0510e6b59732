import type { ModuleSlug } from '@kontrol/contracts';
import { apiClient } from '../../lib/api-client';

/** The loading flags of SPEC §4, one per resource. */
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
  /** Only users holding this module load it: anyone else would get 403 for nothing. */
  module: ModuleSlug;
  /** Account pages wait for it (SPEC §1); the others are only requested on entry. */
  gates: boolean;
  /** SPEC §4: addresses and rooms are cached; a load is skipped unless a refresh is forced. */
  cached: boolean;
  load: (signal: AbortSignal) => Promise<unknown>;
}

const getList = (url: string) => async (signal: AbortSignal) =>
  (await apiClient.get<{ data: unknown }>(url, { signal })).data.data;

/**
 * The reference data every account page may need, as SPEC §1 lists it. List responses are read
 * from `data.data`; device types from `data` inside that (SPEC §7).
 */
export const referenceResources: readonly ReferenceResource[] = [
  {
    name: 'deviceTypes',
    flag: 'deviceTypes',
    module: 'devices',
    gates: true,
    cached: false,
    load: async (signal) =>
      (await apiClient.get<{ data: { data: unknown } }>('/devices/types/', { signal })).data.data.data,
  },
  {
    name: 'devices',
    flag: 'devices',
    module: 'devices',
    gates: true,
    cached: false,
    load: getList('/devices/'),
  },
  {
    name: 'addresses',
    flag: 'addresses',
    module: 'addresses',
    gates: true,
    cached: true,
    load: getList('/addresses/'),
  },
  { name: 'rooms', flag: 'rooms', module: 'addresses', gates: true, cached: true, load: getList('/rooms/') },
  {
    name: 'deviceEventTemplates',
    flag: 'device_event_templates',
    module: 'device_event_template',
    gates: true,
    cached: false,
    load: getList('/devices/events/templates/all'),
  },
  {
    name: 'recipes',
    flag: 'recipes',
    module: 'recipes',
    gates: true,
    cached: false,
    load: getList('/recipes/'),
  },
  {
    name: 'recipesSets',
    flag: 'recipesSets',
    module: 'recipes',
    gates: true,
    cached: false,
    load: getList('/recipes_sets/'),
  },
  {
    name: 'aclModules',
    flag: 'acl',
    module: 'users',
    gates: true,
    cached: false,
    load: getList('/acl/modules'),
  },
  {
    // SPEC §6: the roles list asks for page 1 with both flags set.
    name: 'aclRoles',
    flag: 'acl',
    module: 'users',
    gates: true,
    cached: false,
    load: async (signal) =>
      (
        await apiClient.post<{ data: unknown }>(
          '/acl/roles',
          { page: 1, withoutPagination: true, withAdminRole: true },
          { signal },
        )
      ).data.data,
  },
  {
    name: 'deviceEvents',
    flag: 'device_events',
    module: 'device_event_template',
    gates: false,
    cached: false,
    load: getList('/devices/events'),
  },
];

export const referenceKey = (name: string) => ['reference', name] as const;
