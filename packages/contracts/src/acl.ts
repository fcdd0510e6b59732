import { z } from 'zod';
import { idSchema } from './ids.js';
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

/** `POST /api/acl/roles` (docs/contract.md, "Roles and permissions"/"HTTP calls"): page, filters, withoutPagination, withAdminRole. */
export const aclRolesListBodySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
  withoutPagination: z.boolean().default(false),
  withAdminRole: z.boolean().default(false),
});

export const ACL_ROLE_NAME_MAX_LENGTH = 255;

/** `POST /api/acl/role` (docs/contract.md, "HTTP calls"): the first of the organisation's roles matching the filters. */
export const aclRoleFindBodySchema = z.object({
  filters: filtersParamSchema.optional(),
  withAdminRole: z.boolean().default(true),
});

const moduleIds = z.array(idSchema).max(100);

/** `POST /api/acl/role/add`: a client-system role of the caller's organisation. */
export const aclRoleAddBodySchema = z.object({
  name: z.string().trim().min(1).max(ACL_ROLE_NAME_MAX_LENGTH),
  module_ids: moduleIds.default([]),
});
export type AclRoleAddBody = z.input<typeof aclRoleAddBodySchema>;

/** `POST /api/acl/role/{id}`: rename (and, when given, replace the modules). */
export const aclRoleUpdateBodySchema = z.object({
  name: z.string().trim().min(1).max(ACL_ROLE_NAME_MAX_LENGTH).optional(),
  module_ids: moduleIds.optional(),
});
export type AclRoleUpdateBody = z.input<typeof aclRoleUpdateBodySchema>;

/** `POST /api/acl/role/{id}/modules`: the role's whole module list, replaced. */
export const aclRoleModulesBodySchema = z.object({ module_ids: moduleIds });
export type AclRoleModulesBody = z.input<typeof aclRoleModulesBodySchema>;
