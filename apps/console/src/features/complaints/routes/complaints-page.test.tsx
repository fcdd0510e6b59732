import type { Complaint } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { ARBAT, BORIS, buildComplaint, choose, DISHWASHER, paged, renderRequests } from '../test/fixtures';

afterEach(() => queryClient.clear());

/** Serves the list and records each request's page and filters. */
function serveComplaints(answer: (page: number) => ReturnType<typeof paged<Complaint>>) {
  const requests: { page: string | null; filters: unknown }[] = [];
  server.use(
    http.get('/api/alerts/', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const filters = params.get('filters');
      const page = params.get('page');
      requests.push({ page, filters: filters === null ? null : (JSON.parse(filters) as unknown) });
      return HttpResponse.json(answer(Number(page ?? 1)));
    }),
  );
  return requests;
}

const OPEN = { status: { operator: 'in', value: ['new', 'in_progress'] } };

describe('the complaints list', { timeout: 30_000 }, () => {
  it('shows the open complaints by default, with their device, address, badges, assignee, date and comments', async () => {
    const requests = serveComplaints(() =>
      paged([
        buildComplaint({
          id: 5,
          title: 'Посудомойка течёт',
          device_id: DISHWASHER.id,
          address_id: ARBAT.id,
          priority: 'urgent',
          status: 'in_progress',
          assignee: { id: BORIS.id, name: BORIS.name },
          comments_count: 3,
          created_at: '2026-11-20T07:05:00.000Z',
        }),
        buildComplaint({ id: 4, title: 'Шумит вытяжка', device_id: null, address_id: ARBAT.id }),
      ]),
    );
    await renderRequests('/account/requests');
    const table = await screen.findByRole('table', { name: 'Жалобы' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    expect(within(first).getByRole('link', { name: 'Посудомойка течёт' })).toHaveAttribute(
      'href',
      '/account/requests/5',
    );
    expect(within(first).getByRole('link', { name: 'Посудомойка' })).toHaveAttribute(
      'href',
      '/account/devices/3',
    );
    expect(within(first).getByRole('link', { name: 'Арбат, 10' })).toHaveAttribute(
      'href',
      '/account/addresses/2',
    );
    expect(first).toHaveTextContent('Срочный');
    expect(first).toHaveTextContent('В работе');
    expect(first).toHaveTextContent('Борис Техник');
    // The date in the interface language and the browser's time zone.
    const created = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' }).format(
      new Date('2026-11-20T07:05:00.000Z'),
    );
    expect(first).toHaveTextContent(created);
    expect(within(first).getAllByRole('cell').at(-1)).toHaveTextContent('3');
    // About an address only, nobody assigned.
    expect(rows[1]).toHaveTextContent('Арбат, 10');
    expect(rows[1]).toHaveTextContent('Новая');
    expect(within(rows[1] as HTMLElement).getAllByRole('cell')[4]).toHaveTextContent('—');

    expect(requests).toEqual([{ page: '1', filters: OPEN }]);
    expect(screen.getByRole('combobox', { name: 'Статус' })).toHaveValue('Открытые (новые и в работе)');
    expect(screen.getByRole('link', { name: 'Новая жалоба' })).toHaveAttribute(
      'href',
      '/account/requests/add',
    );
  });

  it('sends every filter to the server and keeps them in the URL', async () => {
    const user = userEvent.setup();
    const requests = serveComplaints(() => paged([buildComplaint()]));
    const { router } = await renderRequests('/account/requests');
    await screen.findByRole('table', { name: 'Жалобы' });

    await choose(screen.getByRole('combobox', { name: 'Приоритет' }), 'Срочный');
    await choose(screen.getByRole('combobox', { name: 'Устройство' }), 'Посудомойка');
    await choose(screen.getByRole('combobox', { name: 'Адрес' }), 'Арбат, 10');
    await choose(screen.getByRole('combobox', { name: 'Исполнитель' }), 'Борис Техник');
    await choose(screen.getByRole('combobox', { name: 'Статус' }), 'Решена');
    await user.type(screen.getByRole('searchbox', { name: 'Поиск жалоб' }), 'течёт');

    await waitFor(() =>
      expect(requests.at(-1)).toEqual({
        page: '1',
        filters: {
          status: { operator: '=', value: 'resolved' },
          priority: { operator: '=', value: 'urgent' },
          device_id: { operator: '=', value: 3 },
          address_id: { operator: '=', value: 2 },
          assignee_id: { operator: '=', value: 2 },
          title: { operator: 'like', value: 'течёт' },
        },
      }),
    );
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      priority: 'urgent',
      device: '3',
      address: '2',
      assignee: '2',
      status: 'resolved',
      q: 'течёт',
    });

    // Every status: no status filter at all.
    await choose(screen.getByRole('combobox', { name: 'Статус' }), 'Все');
    await waitFor(() => expect((requests.at(-1)?.filters as Record<string, unknown>).status).toBeUndefined());
    // Reset: back to the open ones (the first page, still in the cache: no new request).
    await user.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Статус' })).toHaveValue('Открытые (новые и в работе)'),
    );
    expect(screen.getByRole('combobox', { name: 'Приоритет' })).toHaveValue('');
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Поиск жалоб' })).toHaveValue(''));
    expect(requests[0]).toEqual({ page: '1', filters: OPEN });
  });

  it('reads the filters from a shared link, and pages through the list', async () => {
    const user = userEvent.setup();
    const requests = serveComplaints((page) =>
      paged([buildComplaint({ id: page, title: `Жалоба со страницы ${page}` })], page, 3),
    );
    const { router } = await renderRequests('/account/requests?assignee=2&status=all');
    expect(await screen.findByRole('link', { name: 'Жалоба со страницы 1' })).toBeInTheDocument();
    expect(requests[0]).toEqual({ page: '1', filters: { assignee_id: { operator: '=', value: 2 } } });
    expect(screen.getByRole('combobox', { name: 'Исполнитель' })).toHaveValue('Борис Техник');

    await user.click(screen.getByRole('button', { name: 'Страница 2' }));
    expect(await screen.findByRole('link', { name: 'Жалоба со страницы 2' })).toBeInTheDocument();
    expect(requests.at(-1)).toEqual({ page: '2', filters: { assignee_id: { operator: '=', value: 2 } } });
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
  });

  it('says when no complaint matches, and offers as assignees only those who may take complaints', async () => {
    const user = userEvent.setup();
    serveComplaints(() => paged([]));
    await renderRequests('/account/requests');
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Исполнитель' }));
    expect(await screen.findByRole('option', { name: 'Анна Повар' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Уволенный' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Пекарь' })).toBeNull();
  });

  it('finds the complaints nobody is assigned to', async () => {
    const requests = serveComplaints(() => paged([buildComplaint()]));
    const { router } = await renderRequests('/account/requests');
    await screen.findByRole('table', { name: 'Жалобы' });
    await choose(screen.getByRole('combobox', { name: 'Исполнитель' }), 'Не назначен');
    await waitFor(() =>
      expect(requests.at(-1)?.filters).toEqual({ ...OPEN, assignee_id: { operator: '=', value: null } }),
    );
    expect(router.state.location.search).toBe('?assignee=none');
  });
});
