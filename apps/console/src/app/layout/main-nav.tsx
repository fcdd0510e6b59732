import { MODULE_SLUGS, type AuthUser } from '@kontrol/contracts';
import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { modulePaths } from '../../config/paths';
import { moduleLabel } from '../../lib/module-labels';

/**
 * The sidebar entries of docs/contract.md, "Screens and routes", in its order: one per module the user holds, and logout always.
 * The entry of the current page is marked (`aria-current="page"`).
 */
export function MainNav({
  user,
  onNavigate,
  onLogout,
}: {
  user: AuthUser;
  onNavigate?: () => void;
  onLogout: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const held = new Set(user.acl_modules.map((m) => m.slug));
  return (
    <nav aria-label={t('Main menu')}>
      <Stack gap={2}>
        {MODULE_SLUGS.filter((slug) => held.has(slug)).map((slug) => {
          const to = modulePaths[slug];
          const active = pathname === to || pathname.startsWith(`${to}/`);
          return (
            <NavLink
              key={slug}
              component={Link}
              to={to}
              label={moduleLabel(slug)}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
            />
          );
        })}
        <NavLink component="button" type="button" label={t('Log out')} onClick={onLogout} />
      </Stack>
    </nav>
  );
}
