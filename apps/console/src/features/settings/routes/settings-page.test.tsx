import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { REGULAR, buildIntegration, renderSettings, serveIntegrations } from '../test/fixtures';

afterEach(() => queryClient.clear());

const active = buildIntegration({
  id: 1,
  name: 'Телефон Анны',
  last_delivery_at: '2026-11-20T10:30:00.000Z',
});
const waiting = buildIntegration({
  id: 2,
  name: 'Группа кухни',
  status: 'pending',
  user: { id: 2, name: 'Борис Су-шеф' },
  chat: null,
  bound_at: null,
  link_expires_at: '2026-11-20T11:00:00.000Z',
});
const blocked = buildIntegration({
  id: 3,
  name: 'Старый чат',
  status: 'blocked',
  chat: { title: 'Смена', username: null },
});
const expired = buildIntegration({ id: 4, name: 'Забытая ссылка', status: 'expired', chat: null });

describe('the settings page', { timeout: 30_000 }, () => {
  it('lists the integrations: for whom, status, chat and last delivery, each opening its page', async () => {
    serveIntegrations([active, waiting, blocked, expired]);
    await renderSettings('/account/settings');

    const table = await screen.findByRole('table', { name: 'Интеграции' });
    const row = (name: string) =>
      within(table).getByRole('link', { name }).closest('[role="row"]') as HTMLElement;
    expect(row('Телефон Анны')).toHaveTextContent('Telegram');
    expect(row('Телефон Анны')).toHaveTextContent('Анна Повар');
    expect(row('Телефон Анны')).toHaveTextContent('Активна');
    expect(row('Телефон Анны')).toHaveTextContent('Анна Повар (@anna_cook)');
    // The last delivery in Russian short form: day.month.year, hours:minutes.
    expect(row('Телефон Анны')).toHaveTextContent(/20\.11\.2026, \d{2}:30/);
    expect(row('Группа кухни')).toHaveTextContent('Борис Су-шеф');
    expect(row('Группа кухни')).toHaveTextContent('Ожидает чат');
    expect(row('Старый чат')).toHaveTextContent('Заблокирована');
    expect(row('Старый чат')).toHaveTextContent('Смена');
    expect(row('Забытая ссылка')).toHaveTextContent('Ссылка истекла');
    expect(within(table).getByRole('link', { name: 'Группа кухни' })).toHaveAttribute(
      'href',
      '/account/settings/2',
    );
    expect(screen.getByText('Уведомления в Telegram присылает бот @kontrol_bot.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Добавить интеграцию' })).toHaveAttribute(
      'href',
      '/account/settings/add',
    );
  });

  it('explains integrations when there are none', async () => {
    serveIntegrations([]);
    await renderSettings('/account/settings');

    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(
      screen.getByText(/Интеграция доставляет уведомления пользователя за пределы консоли/),
    ).toHaveTextContent('Добавьте её, откройте полученную ссылку в Telegram и нажмите «Старт».');
  });

  it('says the server administrator must set TELEGRAM_BOT_TOKEN when there is no bot, and offers no adding', async () => {
    serveIntegrations([], { configured: false, bot_username: null });
    await renderSettings('/account/settings');

    expect(await screen.findByText('На этом сервере Telegram не настроен')).toBeInTheDocument();
    expect(screen.getByText(/TELEGRAM_BOT_TOKEN/)).toHaveTextContent(
      'Администратор сервера должен указать токен бота в переменной окружения TELEGRAM_BOT_TOKEN и перезапустить сервер.',
    );
    expect(screen.queryByRole('link', { name: 'Добавить интеграцию' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Добавить интеграцию' })).toBeDisabled();
  });

  it('shows a user who is not an admin the list, but no way to add', async () => {
    serveIntegrations([active]);
    await renderSettings('/account/settings', REGULAR);

    expect(await screen.findByRole('link', { name: 'Телефон Анны' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Добавить интеграцию' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Добавить интеграцию' })).toBeNull();
  });

  it('tells a user who is not an admin, when there are none, to ask an administrator', async () => {
    serveIntegrations([]);
    await renderSettings('/account/settings', REGULAR);

    expect(await screen.findByText(/Попросите администратора добавить её для вас/)).toBeInTheDocument();
    expect(screen.queryByText(/нажмите «Старт»/)).toBeNull();
  });
});
