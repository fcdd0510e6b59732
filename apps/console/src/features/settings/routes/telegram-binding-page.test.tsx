import type { IntegrationStatus } from '@kontrol/contracts';
import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { passPolls, fakePollTimers } from '../../../test/poll-timers';
import { server } from '../../../test/server';
import { BINDING_POLL_MS } from '../api/get-telegram-binding';
import { REGULAR, renderSettings, serveIntegrations } from '../test/fixtures';

// The page's polling runs on timers this file moves on.
fakePollTimers();
afterEach(() => queryClient.clear());

const TOKEN = 'Zy9xW8vU7tS6rQ5p_-ab';
const URL_OF_LINK = `https://t.me/kontrol_bot?start=${TOKEN}`;
const passBindingPolls = (polls = 1) => passPolls(BINDING_POLL_MS, polls);

/** Answers the binding with one status per request (the last one kept) and counts the requests. */
function serveBinding(...statuses: IntegrationStatus[]) {
  const asked = { count: 0 };
  const expiresAt = new Date(Date.now() + 30 * 60_000 - 5_000).toISOString();
  server.use(
    http.get(`/api/integrations/telegram/${TOKEN}`, () => {
      const status = statuses[Math.min(asked.count, statuses.length - 1)] ?? 'pending';
      asked.count += 1;
      return HttpResponse.json({
        data: {
          integration_id: 7,
          status,
          url: URL_OF_LINK,
          expires_at: expiresAt,
          chat: status === 'active' ? { title: 'Кухня', username: 'kitchen' } : null,
        },
      });
    }),
  );
  return asked;
}

describe('the Telegram binding page', { timeout: 60_000 }, () => {
  it('shows the link and the time left, waits for the chat, then names it and stops asking', async () => {
    serveIntegrations([]);
    const asked = serveBinding('pending', 'pending', 'active');
    await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`);

    expect(await screen.findByRole('link', { name: 'Открыть Telegram' })).toHaveAttribute(
      'href',
      URL_OF_LINK,
    );
    expect(screen.getByRole('textbox', { name: 'Ссылка' })).toHaveValue(URL_OF_LINK);
    expect(screen.getByRole('button', { name: 'Скопировать' })).toBeInTheDocument();
    expect(screen.getByText(/^Ссылка действительна ещё 29:\d{2}\.$/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ждём подключения чата…');

    await passBindingPolls(2);
    expect(await screen.findByText('Telegram подключён')).toBeInTheDocument();
    expect(screen.getByText('Уведомления будут приходить в чат «Кухня (@kitchen)».')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Открыть интеграцию' })).toHaveAttribute(
      'href',
      '/account/settings/7',
    );
    expect(screen.queryByRole('link', { name: 'Открыть Telegram' })).toBeNull();
    expect(asked.count).toBe(3);

    await passBindingPolls(3);
    expect(asked.count).toBe(3);
  });

  it('offers a new link when the link expires', async () => {
    serveIntegrations([]);
    const asked = serveBinding('pending', 'expired');
    await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`);

    await passBindingPolls();
    expect(await screen.findByText('Срок действия ссылки истёк')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Создать новую ссылку' })).toHaveAttribute(
      'href',
      '/account/settings/add',
    );
    expect(screen.queryByRole('link', { name: 'Открыть Telegram' })).toBeNull();
    const count = asked.count;
    await passBindingPolls(3);
    expect(asked.count).toBe(count);
  });

  it('does not offer a user who is not an admin to create a new link', async () => {
    serveIntegrations([]);
    serveBinding('expired');
    await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`, REGULAR);

    expect(await screen.findByText('Срок действия ссылки истёк')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Создать новую ссылку' })).toBeNull();
  });

  it('stops asking when the page is left', async () => {
    serveIntegrations([]);
    const asked = serveBinding('pending');
    const { router } = await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`);

    expect(await screen.findByRole('link', { name: 'Открыть Telegram' })).toBeInTheDocument();
    await act(() => router.navigate('/account/settings'));
    await screen.findByRole('heading', { name: 'Интеграции' });
    const count = asked.count;
    await passBindingPolls(3);
    expect(asked.count).toBe(count);
  });

  it('says so when the link is unknown (another organisation’s, or deleted), and does not ask again', async () => {
    serveIntegrations([]);
    let asked = 0;
    server.use(
      http.get(`/api/integrations/telegram/${TOKEN}`, () => {
        asked += 1;
        return HttpResponse.json({ message: 'Не найдено' }, { status: 404 });
      }),
    );
    await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`);

    expect(await screen.findByText('Ссылка не найдена')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Открыть Telegram' })).toBeNull();
    await passBindingPolls(3);
    expect(asked).toBe(1);
  });

  it('keeps asking while the server cannot reach Telegram, and shows the link once it can', async () => {
    serveIntegrations([]);
    let failures = 1;
    const asked = serveBinding('pending');
    server.use(
      http.get(`/api/integrations/telegram/${TOKEN}`, () => {
        if (failures-- <= 0) return undefined;
        return HttpResponse.json({ message: 'Telegram недоступен' }, { status: 503 });
      }),
    );
    await renderSettings(`/account/settings/integrations/telegram/${TOKEN}`);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Не удалось загрузить ссылку. Повторите попытку позже.',
    );
    await passBindingPolls();
    expect(await screen.findByRole('link', { name: 'Открыть Telegram' })).toHaveAttribute(
      'href',
      URL_OF_LINK,
    );
    expect(asked.count).toBe(1);
  });
});
