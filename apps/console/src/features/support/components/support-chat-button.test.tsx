import type { AuthUser, SupportMessage } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildSupportMessage } from '../../../test/entities';
import { buildAuthUser, server } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../../lib/auth/use-current-user';
import { SupportChatButton } from './support-chat-button';

configure({ asyncUtilTimeout: 5_000 });
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

afterEach(() => queryClient.clear());

/** The button as the account header holds it; any module will do, as every user may chat. */
function renderChat(user: AuthUser = buildAuthUser(['billing'])) {
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [{ path: 'dashboard', Component: SupportChatButton }],
      },
    ],
    { initialEntries: ['/account/dashboard'] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

function page(data: SupportMessage[], current = 1, last = 1, unread = 0) {
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: current,
      from: 1,
      last_page: last,
      path: '/api/messages',
      per_page: 30,
      to: data.length,
      total: data.length,
      unread,
    },
  };
}

/**
 * A conversation the server keeps: `messages` newest first, 30 a page; the unread count follows
 * the reads posted. Records the pages asked for, the reads and the messages sent.
 */
function serveConversation(initial: SupportMessage[], pageSize = 30) {
  let messages = initial;
  const calls = { pages: [] as string[], reads: [] as unknown[], sent: [] as unknown[], unread: 0 };
  const unread = () => messages.filter((m) => m.from === 'support' && m.read_at === null).length;
  server.use(
    http.get('/api/messages/unread', () => {
      calls.unread += 1;
      return HttpResponse.json({ data: { unread: unread() } });
    }),
    http.get('/api/messages/', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const number = Number(params.get('page'));
      calls.pages.push(`${params.get('page')}/${params.get('per_page')}`);
      const last = Math.max(1, Math.ceil(messages.length / pageSize));
      const slice = messages.slice((number - 1) * pageSize, number * pageSize);
      return HttpResponse.json(page(slice, number, last, unread()));
    }),
    http.post('/api/messages/read', async ({ request }) => {
      const body = (await request.json()) as { up_to_id?: number };
      calls.reads.push(body);
      messages = messages.map((m) =>
        m.from === 'support' && m.read_at === null && m.id <= (body.up_to_id ?? Infinity)
          ? { ...m, read_at: '2026-11-21T10:00:00.000Z' }
          : m,
      );
      return HttpResponse.json({ data: { unread: unread() } });
    }),
    http.post('/api/messages', async ({ request }) => {
      const body = (await request.json()) as { text: string };
      calls.sent.push(body);
      const message = buildSupportMessage({ id: (messages[0]?.id ?? 0) + 1, text: body.text });
      messages = [message, ...messages];
      return HttpResponse.json({ data: message }, { status: 201 });
    }),
  );
  return calls;
}

const OLGA = { id: null, name: 'Ольга' };
describe('the support chat', { timeout: 30_000 }, () => {
  it('shows the unread count, the conversation oldest first, and marks support’s messages read', async () => {
    const user = userEvent.setup();
    const calls = serveConversation([
      buildSupportMessage({ id: 3, from: 'support', author: OLGA, text: 'Откройте «Настройки».' }),
      buildSupportMessage({
        id: 2,
        from: 'organisation',
        text: 'Как подключить Telegram?',
        read_at: '2026-11-21T09:00:00.000Z',
      }),
      buildSupportMessage({
        id: 1,
        from: 'support',
        author: OLGA,
        text: 'Здравствуйте!',
        read_at: '2026-11-20T09:00:00.000Z',
      }),
    ]);
    renderChat();
    const button = await screen.findByRole('button', { name: 'Чат с поддержкой: непрочитанных — 1' });
    expect(calls.reads).toEqual([]);

    await user.click(button);
    const drawer = await screen.findByRole('dialog', { name: 'Поддержка' });
    const list = await within(drawer).findAllByRole('listitem');
    expect(list.map((item) => item.getAttribute('data-from'))).toEqual([
      'support',
      'organisation',
      'support',
    ]);
    expect(list[0]).toHaveTextContent('Поддержка: Ольга');
    expect(list[0]).toHaveTextContent('Здравствуйте!');
    expect(list[1]).toHaveTextContent('Вы');
    expect(list[1]).toHaveTextContent('Прочитано поддержкой');
    expect(list[2]).toHaveTextContent('Откройте «Настройки».');
    // Times in the interface language.
    const time = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });
    expect(list[0]).toHaveTextContent(time.format(new Date('2026-11-01T09:00:00.000Z')));

    // Shown: read up to the newest of support's, and the badge goes.
    await waitFor(() => expect(calls.reads).toEqual([{ up_to_id: 3 }]));
    expect(await screen.findByRole('button', { name: 'Чат с поддержкой' })).toBeInTheDocument();
    expect(calls.pages).toEqual(['1/30']);
  });

  it('sends with Enter, starts a new line with Shift+Enter, and shows the message at the bottom', async () => {
    const user = userEvent.setup();
    const calls = serveConversation([
      buildSupportMessage({
        id: 1,
        from: 'support',
        author: OLGA,
        text: 'Чем помочь?',
        read_at: '2026-11-20T09:00:00.000Z',
      }),
    ]);
    renderChat();
    await user.click(await screen.findByRole('button', { name: 'Чат с поддержкой' }));
    const box = await screen.findByRole('textbox', { name: 'Сообщение в поддержку' });
    await user.type(box, 'Добрый день!{Shift>}{Enter}{/Shift}Не приходят уведомления.');
    expect(calls.sent).toEqual([]);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls.sent).toEqual([{ text: 'Добрый день!\nНе приходят уведомления.' }]));
    await waitFor(() => expect(box).toHaveValue(''));
    const items = await screen.findAllByRole('listitem');
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    expect(items[0]).toHaveTextContent('Чем помочь?');
    expect(screen.getAllByRole('listitem')[1]).toHaveTextContent('Добрый день! Не приходят уведомления.');
    // Nothing of support's was unread: nothing to mark.
    expect(calls.reads).toEqual([]);
  });

  it('loads older messages on request, above the newer ones', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 32 }, (_, index) =>
      buildSupportMessage({
        id: 32 - index,
        text: `Сообщение ${32 - index}`,
        read_at: '2026-11-20T09:00:00.000Z',
      }),
    );
    const calls = serveConversation(many);
    renderChat();
    await user.click(await screen.findByRole('button', { name: 'Чат с поддержкой' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(30));
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Сообщение 3');
    await user.click(screen.getByRole('button', { name: 'Показать более ранние сообщения' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(32));
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Сообщение 1');
    expect(screen.getAllByRole('listitem')[31]).toHaveTextContent('Сообщение 32');
    expect(calls.pages).toEqual(['1/30', '2/30']);
    expect(screen.queryByRole('button', { name: 'Показать более ранние сообщения' })).toBeNull();
  });

  it('invites a first question when there are no messages', async () => {
    const user = userEvent.setup();
    serveConversation([]);
    renderChat();
    await user.click(await screen.findByRole('button', { name: 'Чат с поддержкой' }));
    expect(
      await screen.findByText('Сообщений пока нет. Задайте вопрос — поддержка ответит здесь.'),
    ).toBeInTheDocument();
  });
});
