import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser, server } from '../../../test/server';
import { FakeEventSource, buildNotification, renderBell } from '../test/fixtures';

beforeAll(() => vi.stubGlobal('EventSource', FakeEventSource));
afterAll(() => vi.unstubAllGlobals());
afterEach(() => queryClient.clear());

const oven = buildNotification({
  id: 11,
  severity: 'critical',
  title: 'Печь 1 перегрелась',
  body: 'Температура 320 °C',
  // The bell shows when the event happened (10:30), not when the row was written.
  occurred_at: '2026-11-20T10:30:00.000Z',
  created_at: '2026-11-20T11:05:00.000Z',
});
const wash = buildNotification({
  id: 10,
  severity: 'info',
  title: 'Мойка завершена',
  body: '',
  occurred_at: '2026-11-20T09:00:00.000Z',
  created_at: '2026-11-20T09:00:00.000Z',
  read_at: '2026-11-20T09:05:00.000Z',
});

/** The user's own notifications as the server keeps them: the unread count follows `read_at`. */
function serveNotifications(initial = [oven, wash]) {
  let list = [...initial];
  const asked = { unread: 0, latest: [] as URL[], read: [] as unknown[] };
  server.use(
    http.get('/api/notifications/unread', () => {
      asked.unread += 1;
      return HttpResponse.json({ data: { unread: list.filter((one) => one.read_at === null).length } });
    }),
    http.get('/api/notifications', ({ request }) => {
      asked.latest.push(new URL(request.url));
      return HttpResponse.json({
        data: list,
        links: { first: '', last: '', prev: null, next: null },
        meta: {
          current_page: 1,
          from: 1,
          last_page: 1,
          path: '',
          per_page: 10,
          to: list.length,
          total: list.length,
        },
      });
    }),
    http.post('/api/notifications/read', async ({ request }) => {
      asked.read.push(await request.json());
      const marked = list.filter((one) => one.read_at === null).length;
      list = list.map((one) => ({ ...one, read_at: one.read_at ?? new Date().toISOString() }));
      return HttpResponse.json({ data: { marked, unread: 0 } });
    }),
  );
  return {
    asked,
    /** A notification the server raised (the live stream tells the browser separately). */
    add: (one: typeof oven) => {
      list = [one, ...list];
    },
  };
}

describe('the notification bell', { timeout: 30_000 }, () => {
  it('shows the unread count, lists the newest, and marks all read', async () => {
    const user = userEvent.setup();
    const { asked } = serveNotifications();
    await renderBell();

    const bell = await screen.findByRole('button', { name: 'Уведомления, непрочитанных: 1' });
    expect(asked.latest).toHaveLength(0);
    await user.click(bell);

    const list = await screen.findByRole('list', { name: 'Последние уведомления' });
    expect(asked.latest[0]?.searchParams.get('per_page')).toBe('10');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Печь 1 перегрелась (Не прочитано)');
    expect(items[0]).toHaveTextContent('Температура 320 °C');
    expect(items[0]).toHaveTextContent(/20\.11\.2026, \d{2}:30 · Авария/);
    expect(items[1]).toHaveTextContent('Мойка завершена');
    expect(items[1]).not.toHaveTextContent('Не прочитано');
    expect(items[1]).toHaveTextContent('Информация');

    await user.click(screen.getByRole('button', { name: 'Отметить все прочитанными' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Уведомления' })).toBeInTheDocument());
    expect(asked.read).toEqual([{}]);
    expect(within(list).queryByText(/Не прочитано/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Отметить все прочитанными' })).toBeDisabled();
  });

  it('pops up a notification arriving on the live stream and counts it', async () => {
    const user = userEvent.setup();
    const notifications = serveNotifications([wash]);
    await renderBell();
    await screen.findByRole('button', { name: 'Уведомления' });
    await waitFor(() => expect(FakeEventSource.current().url).toBe('/api/live'));

    const door = buildNotification({
      id: 12,
      severity: 'warning',
      title: 'Дверь холодильника открыта',
      body: 'Уже 5 минут',
    });
    notifications.add(door);
    const unreadAsked = notifications.asked.unread;
    act(() => FakeEventSource.current().emit('notifications', { data: [door] }));

    const log = screen.getByRole('log', { name: 'Новые уведомления' });
    expect(await within(log).findByText('Дверь холодильника открыта')).toBeInTheDocument();
    expect(log).toHaveTextContent('Уже 5 минут');
    expect(log).toHaveTextContent('Предупреждение');
    // Polite: the log announces it, the pop-up itself does not interrupt as an alert would.
    expect(within(log).queryAllByRole('alert')).toHaveLength(0);
    expect(within(log).getByRole('group', { name: 'Дверь холодильника открыта' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Уведомления, непрочитанных: 1' })).toBeInTheDocument();
    // The count is read again from the server after the event.
    await waitFor(() => expect(notifications.asked.unread).toBeGreaterThan(unreadAsked));

    await user.click(
      within(log).getByRole('button', { name: 'Закрыть уведомление «Дверь холодильника открыта»' }),
    );
    expect(within(log).queryByText('Дверь холодильника открыта')).toBeNull();

    // Something that is not a list of notifications changes nothing.
    act(() => FakeEventSource.current().emit('notifications', { data: [{ id: 'x' }] }));
    expect(within(log).queryAllByRole('alert')).toHaveLength(0);
    expect(log).toBeEmptyDOMElement();
  });

  it('leads to the notifications tab for a user who holds the telemetry module', async () => {
    const user = userEvent.setup();
    serveNotifications();
    const { router } = await renderBell(buildAuthUser(['telemetry']));

    await user.click(await screen.findByRole('button', { name: /Уведомления/ }));
    await user.click(await screen.findByRole('link', { name: 'Все уведомления' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/telemetry'));
    expect(router.state.location.search).toBe('?tab=notifications');
  });

  it('works for a user without any module, with no link to a tab they cannot open', async () => {
    const user = userEvent.setup();
    serveNotifications();
    await renderBell(buildAuthUser([]));

    await user.click(await screen.findByRole('button', { name: 'Уведомления, непрочитанных: 1' }));
    expect(await screen.findByRole('list', { name: 'Последние уведомления' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Все уведомления' })).toBeNull();
  });

  it('says so when there are none', async () => {
    const user = userEvent.setup();
    serveNotifications([]);
    await renderBell();

    await user.click(await screen.findByRole('button', { name: 'Уведомления' }));
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отметить все прочитанными' })).toBeDisabled();
  });
});
