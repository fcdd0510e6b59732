import type { ModuleSlug } from '@kontrol/contracts';

/**
 * The reference lists read with a plain GET (SPEC §1, §7): their address under `/api` and the
 * module a user needs for them. Shared by the reference data (resources.ts) and the early
 * requests of a signed-in page (src/early/early-requests.ts), which must stay free of anything
 * heavier than this list.
 */
export const REFERENCE_LISTS = {
  deviceTypes: { url: '/devices/types/', module: 'devices' },
  devices: { url: '/devices/', module: 'devices' },
  addresses: { url: '/addresses/', module: 'addresses' },
  rooms: { url: '/rooms/', module: 'addresses' },
  deviceEventTemplates: { url: '/devices/events/templates/all', module: 'device_event_template' },
  recipes: { url: '/recipes/', module: 'recipes' },
  recipesSets: { url: '/recipes_sets/', module: 'recipes' },
  aclModules: { url: '/acl/modules', module: 'users' },
  deviceEvents: { url: '/devices/events', module: 'device_event_template' },
} as const satisfies Record<string, { url: string; module: ModuleSlug }>;

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
