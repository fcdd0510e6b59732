import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import {
  ADMIN,
  REGULAR,
  buildIntegration,
  buildUser,
  choose,
  renderSettings,
  serveIntegrations,
} from '../test/fixtures';

afterEach(() => queryClient.clear());

const TOKEN = 'AbCdEfGh12345678_-xyz';
const boris = buildUser({ id: 2, name: 'Борис Су-шеф', email: 'boris@example.test' });
const gone = buildUser({ id: 3, name: 'Уволенный Пётр', email: 'petr@example.test', disabled: true });

describe('adding an integration', { timeout: 30_000 }, () => {
  it('creates a Telegram integration for the chosen user and opens its link page', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    const created = buildIntegration({
      id: 7,
      name: 'Телефон Бориса',
      status: 'pending',
      user: { id: 2, name: 'Борис Су-шеф' },
      chat: null,
      bound_at: null,
      link_expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    const url = `https://t.me/kontrol_bot?start=${TOKEN}`;
    serveIntegrations([]);
    server.use(
      http.post('/api/integrations', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { data: created, link: { token: TOKEN, url, expires_at: created.link_expires_at } },
          { status: 201 },
        );
      }),
      http.get(`/api/integrations/telegram/${TOKEN}`, () =>
        HttpResponse.json({
          data: {
            integration_id: 7,
            status: 'pending',
            url,
            expires_at: created.link_expires_at,
            chat: null,
          },
        }),
      ),
    );
    const { router } = await renderSettings('/account/settings/add', ADMIN, [boris, gone]);

    expect(await screen.findByRole('combobox', { name: /Вид/ })).toHaveValue('Telegram');
    const recipient = screen.getByRole('combobox', { name: /Для кого/ });
    // The signed-in user is preselected; a disabled user is not offered.
    expect(recipient).toHaveValue('Анна Повар (я)');
    await user.click(recipient);
    expect(screen.queryByRole('option', { name: /Уволенный Пётр/ })).toBeNull();
    await user.keyboard('{Escape}');
    await choose(recipient, 'Борис Су-шеф (boris@example.test)');
    await user.type(screen.getByRole('textbox', { name: /Название/ }), '  Телефон Бориса ');
    await user.click(screen.getByRole('button', { name: 'Добавить интеграцию' }));

    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/account/settings/integrations/telegram/${TOKEN}`),
    );
    expect(sent).toEqual({ kind: 'telegram', name: 'Телефон Бориса', user_id: 2 });
    expect(await screen.findByRole('link', { name: 'Открыть Telegram' })).toHaveAttribute('href', url);
  });

  it('shows the server’s refusal under the field: no bot on the server', async () => {
    const user = userEvent.setup();
    serveIntegrations([], { configured: false, bot_username: null });
    server.use(
      http.post('/api/integrations', () =>
        HttpResponse.json(
          {
            message: 'Проверьте поля формы',
            errors: { kind: ['На сервере не настроен бот Telegram (TELEGRAM_BOT_TOKEN).'] },
          },
          { status: 422 },
        ),
      ),
    );
    const { router } = await renderSettings('/account/settings/add');

    expect(await screen.findByText('На этом сервере Telegram не настроен')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Название/ }), 'Мой телефон');
    await user.click(screen.getByRole('button', { name: 'Добавить интеграцию' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Исправьте следующие ошибки');
    expect(screen.getByRole('combobox', { name: /Вид/ })).toHaveAccessibleDescription(
      'На сервере не настроен бот Telegram (TELEGRAM_BOT_TOKEN).',
    );
    expect(router.state.location.pathname).toBe('/account/settings/add');
  });

  it('offers no form to a user who is not an admin', async () => {
    serveIntegrations([]);
    await renderSettings('/account/settings/add', REGULAR);

    expect(await screen.findByText('Добавлять интеграции могут только администраторы.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Добавить интеграцию' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Название/ })).toBeNull();
  });
});
