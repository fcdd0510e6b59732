import type { AuthUser, Integration, User } from '@kontrol/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import '../../../lib/i18n';
import { buildAuthUser, server } from '../../../test/server';
import { IntegrationAddPage } from '../routes/integration-add-page';
import { IntegrationPage } from '../routes/integration-page';
import { SettingsPage } from '../routes/settings-page';
import { TelegramBindingPage } from '../routes/telegram-binding-page';
import { renderAccountPages } from '../../../test/render';

export { buildIntegration, buildUser } from '../../../test/entities';

/** An admin of organisation 1 holding the settings and users modules. */
export const ADMIN = buildAuthUser(['settings', 'users'], { isAdmin: true, role: 'admin' });
/** A regular user of organisation 1 who may see the settings. */
export const REGULAR = buildAuthUser(['settings']);

/** Answers `GET /api/integrations` with `integrations` (of the caller's organisation, as the server scopes them). */
export function serveIntegrations(
  integrations: Integration[],
  telegram: { configured: boolean; bot_username: string | null } = {
    configured: true,
    bot_username: 'kontrol_bot',
  },
) {
  const asked = { list: 0 };
  server.use(
    http.get('/api/integrations', () => {
      asked.list += 1;
      return HttpResponse.json({ data: integrations, meta: { telegram } });
    }),
  );
  return asked;
}

/**
 * The settings screens inside a memory router whose account route knows `user`, with the
 * organisation's users in the reference cache as the account frame leaves them.
 */
export async function renderSettings(url: string, user: AuthUser = ADMIN, users: User[] = []) {
  return renderAccountPages({
    url,
    user,
    references: {
      users: users,
    },
    routes: [
      { path: 'settings', Component: SettingsPage },
      { path: 'settings/add', Component: IntegrationAddPage },
      { path: 'settings/integrations/telegram/:token', Component: TelegramBindingPage },
      { path: 'settings/:id', Component: IntegrationPage },
    ],
  });
}

/** Chooses `option` in a Mantine select. */
export async function choose(combobox: HTMLElement, option: string | RegExp) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}
