import { MODULE_SLUGS, type ModuleSlug } from '@kontrol/contracts';
import { Alert } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { modulePaths, pathModules } from '../../config/paths';
import { clearDenied, useDeniedPage } from '../../lib/auth/access-notice';
import { moduleLabel } from '../../lib/module-labels';

/** The module whose section an account address belongs to, if any. */
export function sectionOf(pathname: string): ModuleSlug | undefined {
  const within = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  const own = Object.entries(pathModules).find(([path]) => within(path));
  if (own) return own[1];
  return MODULE_SLUGS.find((slug) => within(modulePaths[slug]));
}

/**
 * Says, on the page the user was sent to, why they are there instead of where they asked to go
 * (docs/console-shell.md: a page of a module they do not hold sends them to their landing page). Gone once
 * closed or once they go on to another page.
 */
export function AccessNotice() {
  const { t } = useTranslation();
  const denied = useDeniedPage();
  const { pathname } = useLocation();
  // Gone when the user moves on: a change of page that is not the redirect's own arrival. (The
  // refusal is noted while the old page still shows, so it is not cleared for being elsewhere.)
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (denied !== null && pathname !== denied.landing) clearDenied();
  }, [pathname, denied]);
  if (!denied || pathname !== denied.landing) return null;
  const section = sectionOf(denied.path);
  return (
    <Alert
      color="yellow"
      mb="md"
      role="status"
      withCloseButton
      closeButtonLabel={t('Close')}
      onClose={clearDenied}
    >
      {section
        ? t(
            'No access to «{{section}}»: your access role does not include this section. Here is your start page.',
            {
              section: moduleLabel(section),
            },
          )
        : t('No access to the page {{path}}. Here is your start page.', { path: denied.path })}
    </Alert>
  );
}
