import type { AuthUser, ModuleSlug } from '@kontrol/contracts';
import { MODULE_SLUGS } from '@kontrol/contracts';
import { setupServer } from 'msw/node';

/** The HTTP boundary of component tests: each test says what the API answers (msw handlers). */
export const server = setupServer();

/** A user as GET /api/users/auth returns it, holding `modules`. */
export function buildAuthUser(
  modules: readonly ModuleSlug[] = MODULE_SLUGS,
  overrides: Partial<AuthUser> = {},
): AuthUser {
  return {
    id: 1,
    name: 'Анна Повар',
    email: 'anna@example.test',
    isAdmin: false,
    role: 'regular',
    status: 'verified',
    email_verified_at: '2026-11-01T09:00:00.000Z',
    locale: 'ru',
    organisation: { id: 1, name: 'Кафе' },
    acl_role: { id: 1, name: 'Повара' },
    acl_modules: modules.map((slug, index) => ({ id: index + 1, slug, name: slug, is_client_system: true })),
    ...overrides,
  };
}

/** A paged list as the API answers it: page `current` of `last`, `total` rows in all. */
export function pageOf<T>(data: T[], current = 1, last = 1, total = data.length) {
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: current,
      from: 1,
      last_page: last,
      path: '',
      per_page: 25,
      to: data.length,
      total,
    },
  };
}
