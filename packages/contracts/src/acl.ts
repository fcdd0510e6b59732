import { z } from 'zod';
import { filtersParamSchema } from './pagination.js';

/**
 * The access-control modules of SPEC §2 (sidebar) and §6. Every API route declares one of these,
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
export const moduleSlugSchema = z.enum(MODULE_SLUGS);

/** Sidebar labels exactly as SPEC §2 gives them (Russian), with the English translation. */
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

export const aclModuleSchema = z.object({
  id: z.number().int(),
  slug: moduleSlugSchema,
  name: z.string(),
  is_client_system: z.boolean(),
});
export type AclModule = z.infer<typeof aclModuleSchema>;

/** An access role of the caller's organisation (`account_id`), with its modules. */
export const aclRoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account_id: z.number().int(),
  is_admin_role: z.boolean(),
  modules: z.array(aclModuleSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AclRole = z.infer<typeof aclRoleSchema>;

/** `POST /api/acl/roles` (SPEC §6/§7): page, filters, withoutPagination, withAdminRole. */
export const aclRolesListBodySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
  withoutPagination: z.boolean().default(false),
  withAdminRole: z.boolean().default(false),
});
