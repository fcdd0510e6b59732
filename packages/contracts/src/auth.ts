import { z } from 'zod';
import { LOCALES } from './constants.js';
import { aclModuleSchema } from './acl.js';
import { nameSchema } from './names.js';

/** Password policy (OWASP ASVS: at least 8, allow long passphrases). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 255;
export const EMAIL_MAX_LENGTH = 255;

export const USER_ROLES = ['regular', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const USER_STATUSES = ['verified', 'not_verified'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

const email = z.email().max(EMAIL_MAX_LENGTH);
/** A person's or an organisation's name: no links, e-mail addresses or control characters. */
const name = nameSchema(NAME_MAX_LENGTH);
const newPassword = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
const confirmed = { path: ['password'], params: { key: 'passwords.confirmed' } };

export const loginBodySchema = z.object({
  email,
  password: z.string().min(1).max(1024),
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const registerBodySchema = z
  .object({
    name,
    email,
    password: newPassword,
    password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
    organisation_name: name.optional(),
    locale: z.enum(LOCALES).optional(),
  })
  .refine((body) => body.password === body.password_confirmation, confirmed);
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const sendResetLinkBodySchema = z.object({ email });

export const resetPasswordBodySchema = z
  .object({
    token: z.string().min(1).max(256),
    email,
    password: newPassword,
    password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((body) => body.password === body.password_confirmation, confirmed);
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const updatePasswordBodySchema = z
  .object({
    current_password: z.string().min(1).max(1024),
    password: newPassword,
    password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((body) => body.password === body.password_confirmation, confirmed);
export type UpdatePasswordBody = z.infer<typeof updatePasswordBodySchema>;

export const updateProfileBodySchema = z.object({
  name,
  email,
  locale: z.enum(LOCALES).optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

/** GET /api/users/auth → `{data: AuthUser}` (docs/contract.md, "Entities" Auth user, "HTTP calls"). */
export const authUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  email_verified_at: z.string().nullable(),
  locale: z.enum(LOCALES),
  organisation: z.object({ id: z.number().int(), name: z.string() }),
  acl_role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  acl_modules: z.array(aclModuleSchema),
});
export type AuthUser = z.infer<typeof authUserSchema>;
