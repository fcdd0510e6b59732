import type { AclModule, ModuleSlug } from '@kontrol/contracts';

export const toModule = (m: {
  id: number;
  slug: string;
  name: string;
  is_client_system: number;
}): AclModule => ({
  id: m.id,
  slug: m.slug as ModuleSlug,
  name: m.name,
  is_client_system: m.is_client_system === 1,
});
