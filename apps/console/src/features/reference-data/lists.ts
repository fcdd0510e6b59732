import type { ModuleSlug } from '@kontrol/contracts';

/**
 * Holders of any of these may read the devices and their types: the contracts'
 * DEVICE_LIST_MODULES, written out so that this file (in the first bundle) imports nothing.
 */
export const DEVICE_VIEWERS = [
  'dashboard',
  'devices',
  'telemetry',
  'recipes',
  'requests',
] as const satisfies readonly ModuleSlug[];

/**
 * The reference lists read with a plain GET (SPEC §1, §7): their address under `/api` and the
 * modules of which a user needs one for them. Shared by the reference data (resources.ts) and the early
 * requests of a signed-in page (src/early/early-requests.ts), which must stay free of anything
 * heavier than this list.
 */
export const REFERENCE_LISTS = {
  deviceTypes: { url: '/devices/types/', modules: DEVICE_VIEWERS },
  devices: { url: '/devices/', modules: DEVICE_VIEWERS },
  // ADDRESS_LIST_MODULES of the contracts.
  addresses: { url: '/addresses/', modules: ['addresses', 'requests'] },
  rooms: { url: '/rooms/', modules: ['addresses'] },
  deviceEventTemplates: { url: '/devices/events/templates/all', modules: ['device_event_template'] },
  recipes: { url: '/recipes/', modules: ['recipes'] },
  recipesSets: { url: '/recipes_sets/', modules: ['recipes'] },
  aclModules: { url: '/acl/modules', modules: ['users'] },
  deviceEvents: { url: '/devices/events', modules: ['device_event_template'] },
  // The organisation's users: the users screens, and the complaints screens' assignee choice.
  users: { url: '/users', modules: ['users', 'requests'] },
} as const satisfies Record<string, { url: string; modules: readonly ModuleSlug[] }>;

export type ReferenceListName = keyof typeof REFERENCE_LISTS;

/**
 * The one reference list read with a POST (SPEC §6: the roles list asks for page 1 with both flags
 * set). Early requests key it as `POST /acl/roles`.
 */
export const REFERENCE_ROLES = {
  url: '/acl/roles',
  module: 'users',
  body: { page: 1, withoutPagination: true, withAdminRole: true },
} as const satisfies { url: string; module: ModuleSlug; body: object };
export const REFERENCE_ROLES_KEY = `POST ${REFERENCE_ROLES.url}`;
