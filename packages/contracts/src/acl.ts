import { z } from 'zod';
import { filtersParamSchema } from './pagination.js';
import { MODULE_SLUGS } from './modules.js';

export const moduleSlugSchema = z.enum(MODULE_SLUGS);

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
