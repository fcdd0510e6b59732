// Kept free of zod: the console's first bundle imports it.
import { ADDRESS_LIST_MODULES, DEVICE_LIST_MODULES, type ModuleSlug } from './modules.js';

/**
 * The reference lists read with a plain GET (docs/contract.md, "Product and areas", "HTTP calls"): their address under `/api` and the
 * modules of which a user needs one to read them. The console loads them as its reference data;
 * the server starts them with the page of a signed-in visitor (`<link rel="preload" as="fetch">`),
 * so that they travel while the browser is still evaluating the console.
 */
export const REFERENCE_LISTS = {
  deviceTypes: { url: '/devices/types/', modules: DEVICE_LIST_MODULES },
  devices: { url: '/devices/', modules: DEVICE_LIST_MODULES },
  addresses: { url: '/addresses/', modules: ADDRESS_LIST_MODULES },
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
 * The one reference list read with a POST (docs/contract.md, "Roles and permissions": the roles list asks for page 1 with both flags
 * set). A POST cannot be preloaded: the console asks for it as soon as it starts.
 */
export const REFERENCE_ROLES = {
  url: '/acl/roles',
  module: 'users',
  body: { page: 1, withoutPagination: true, withAdminRole: true },
} as const satisfies { url: string; module: ModuleSlug; body: object };

/** The dashboard's statistics of the whole organisation (docs/contract.md, "HTTP calls" `GET /api/devices/stat`). */
export const DEVICE_STAT_URL = '/devices/stat';
