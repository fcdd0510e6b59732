// Kept free of zod so the console can import it without pulling the validator into its first chunk.

/**
 * The access-control modules of docs/contract.md, "Screens and routes" (sidebar) and "Roles and permissions". Every API route declares one of these,
 * and the console shows a sidebar entry only when the user holds its slug.
 */
export const MODULE_SLUGS = [
  'dashboard',
  'telemetry',
  'requests',
  'device_event_template',
  'recipes',
  'addresses',
  'devices',
  'users',
  'settings',
  'billing',
] as const;
export type ModuleSlug = (typeof MODULE_SLUGS)[number];

/**
 * Modules whose screens show devices (the dashboard, the telemetry page, the equipment): their
 * holders may read the devices and device types lists, and get live device updates.
 */
export const DEVICE_VIEWING_MODULES: readonly ModuleSlug[] = ['dashboard', 'devices', 'telemetry'];
/**
 * Who may read the devices and device types lists: those modules, `recipes` (a recipe is
 * written for a device type and deployed to devices) and `requests` (a complaint names a device).
 */
export const DEVICE_LIST_MODULES: readonly ModuleSlug[] = [...DEVICE_VIEWING_MODULES, 'recipes', 'requests'];
/** Who may read the addresses list: `addresses`, and `requests` (a complaint names an address). */
export const ADDRESS_LIST_MODULES: readonly ModuleSlug[] = ['addresses', 'requests'];
/** Sidebar labels exactly as docs/contract.md, "Screens and routes" gives them (Russian), with the English translation. */
export const MODULE_LABELS: Record<ModuleSlug, { ru: string; en: string }> = {
  dashboard: { ru: 'Главная', en: 'Dashboard' },
  telemetry: { ru: 'Телеметрия', en: 'Telemetry' },
  requests: { ru: 'Жалобы', en: 'Complaints' },
  device_event_template: { ru: 'Шаблоны тока', en: 'Current templates' },
  recipes: { ru: 'Рецепты', en: 'Recipes' },
  addresses: { ru: 'Адреса', en: 'Addresses' },
  devices: { ru: 'Оборудование', en: 'Equipment' },
  users: { ru: 'Пользователи', en: 'Users' },
  settings: { ru: 'Настройки', en: 'Settings' },
  billing: { ru: 'Биллинг', en: 'Billing' },
};
