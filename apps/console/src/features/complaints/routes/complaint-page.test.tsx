import type { Complaint, ComplaintEvent, ComplaintEventBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { BORIS, buildComplaint, buildComplaintEvent, choose, renderRequests } from '../test/fixtures';

afterEach(() => queryClient.clear());

const ANNA = { id: 1, name: 'Анна Повар' };
const BORIS_PERSON = { id: BORIS.id, name: BORIS.name };
const photo = (n: number) => ({ photo: `${String(n).repeat(32)}.jpg`, url: `/api/alerts/photo/${n}.jpg` });
/** The console's one format in Russian (lib/format.ts): `02.11.2026, 12:00`, in the browser's zone. */
const at = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

const history: ComplaintEvent[] = [
  buildComplaintEvent({ id: 1, kind: 'created', created_at: '2026-11-20T07:00:00.000Z' }),
  buildComplaintEvent({
    id: 2,
    kind: 'comment',
    author: BORIS_PERSON,
    text: 'Посмотрю после обеда.\nНужна запчасть.',
    photos: [photo(2), photo(3)],
    created_at: '2026-11-20T08:15:00.000Z',
  }),
  buildComplaintEvent({
    id: 3,
    kind: 'status',
    author: BORIS_PERSON,
    from_status: 'new',
    to_status: 'in_progress',
    created_at: '2026-11-20T08:16:00.000Z',
  }),
  buildComplaintEvent({
    id: 4,
    kind: 'assignee',
    assignee: BORIS_PERSON,
    created_at: '2026-11-20T08:17:00.000Z',
  }),
  buildComplaintEvent({
    id: 5,
    kind: 'priority',
    priority: 'urgent',
    created_at: '2026-11-20T08:18:00.000Z',
  }),
  buildComplaintEvent({
    id: 6,
    kind: 'assignee',
    author: null,
    assignee: null,
    created_at: '2026-11-20T08:19:00.000Z',
  }),
];

/**
 * Serves complaint 9 and its timeline; each posted body is recorded, answered with its entries,
 * and changes the complaint as the server would.
 */
function serveComplaint(
  initial: Complaint,
  events: ComplaintEvent[] = [buildComplaintEvent({ alert_id: 9 })],
) {
  let complaint = initial;
  let timeline = events;
  const posted: ComplaintEventBody[] = [];
  server.use(
    http.get('/api/alerts/9', () => HttpResponse.json({ data: complaint })),
    http.get('/api/alerts/9/events', () => HttpResponse.json({ data: timeline })),
    http.post('/api/alerts/9/events', async ({ request }) => {
      const body = (await request.json()) as ComplaintEventBody;
      posted.push(body);
      const id = 100 + posted.length;
      const added: ComplaintEvent[] = [];
      if (body.text) {
        added.push(buildComplaintEvent({ id, alert_id: 9, kind: 'comment', text: body.text, author: ANNA }));
        complaint = { ...complaint, comments_count: complaint.comments_count + 1 };
      }
      if (body.status) {
        added.push(
          buildComplaintEvent({
            id,
            alert_id: 9,
            kind: 'status',
            from_status: complaint.status,
            to_status: body.status,
            author: ANNA,
          }),
        );
        complaint = { ...complaint, status: body.status };
      }
      if (body.assignee_id !== undefined) {
        const assignee = body.assignee_id === BORIS.id ? BORIS_PERSON : null;
        added.push(buildComplaintEvent({ id, alert_id: 9, kind: 'assignee', assignee, author: ANNA }));
        complaint = { ...complaint, assignee };
      }
      if (body.priority) {
        added.push(
          buildComplaintEvent({ id, alert_id: 9, kind: 'priority', priority: body.priority, author: ANNA }),
        );
        complaint = { ...complaint, priority: body.priority };
      }
      timeline = [...timeline, ...added];
      return HttpResponse.json({ data: added }, { status: 201 });
    }),
  );
  return posted;
}

/** The text of an element without the CSS that Mantine's responsive grids put inside it. */
function visibleText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('style').forEach((style) => style.remove());
  return copy.textContent ?? '';
}

const statusButtons = () =>
  within(screen.getByRole('group', { name: 'Статус' }))
    .queryAllByRole('button')
    .map((button) => button.textContent);

describe('a complaint’s page', { timeout: 30_000 }, () => {
  it('shows the complaint, its photos and its history with authors and times', async () => {
    serveComplaint(
      buildComplaint({
        id: 9,
        title: 'Печь не греет',
        text: 'Температура не поднимается.',
        priority: 'high',
        status: 'in_progress',
        device_id: 2,
        assignee: BORIS_PERSON,
        photos: [photo(1)],
        created_at: '2026-11-20T07:00:00.000Z',
      }),
      history,
    );
    await renderRequests('/account/requests/9');
    expect(await screen.findByRole('heading', { level: 2, name: 'Печь не греет' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Фритюрница' })).toHaveAttribute('href', '/account/devices/2');
    expect(screen.getByRole('link', { name: 'Тверская, 1' })).toHaveAttribute('href', '/account/addresses/1');
    expect(screen.getByText('Температура не поднимается.')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Фото к жалобе' })).getByRole('img')).toHaveAttribute(
      'src',
      '/api/alerts/photo/1.jpg',
    );
    expect(document.body).toHaveTextContent(`Подал(а): Анна Повар, ${at('2026-11-20T07:00:00.000Z')}`);
    expect(document.body).toHaveTextContent('Исполнитель: Борис Техник');

    const entries = await within(screen.getByRole('list', { name: 'История' })).findAllByRole('listitem');
    const texts = entries
      .filter((entry) => entry.parentElement?.getAttribute('aria-label') === 'История')
      .map(visibleText);
    expect(texts).toEqual([
      `Анна Повар${at('2026-11-20T07:00:00.000Z')}Подал(а) жалобу`,
      `Борис Техник${at('2026-11-20T08:15:00.000Z')}Посмотрю после обеда.\nНужна запчасть.`,
      `Борис Техник${at('2026-11-20T08:16:00.000Z')}Изменил(а) статус: Новая → В работе`,
      `Анна Повар${at('2026-11-20T08:17:00.000Z')}Назначил(а) исполнителя: Борис Техник`,
      `Анна Повар${at('2026-11-20T08:18:00.000Z')}Изменил(а) приоритет на «Срочный»`,
      `Неизвестный автор${at('2026-11-20T08:19:00.000Z')}Снял(а) исполнителя`,
    ]);
    const commentPhotos = within(screen.getByRole('list', { name: 'Фото к комментарию' })).getAllByRole(
      'img',
    );
    expect(commentPhotos.map((img) => img.getAttribute('src'))).toEqual([
      '/api/alerts/photo/2.jpg',
      '/api/alerts/photo/3.jpg',
    ]);
    expect(commentPhotos[0]).toHaveAccessibleName('Фото 1 из 2');
  });

  it('sends a comment with Ctrl+Enter and a status change, each as its own body, and shows them', async () => {
    const user = userEvent.setup();
    const posted = serveComplaint(buildComplaint({ id: 9 }));
    await renderRequests('/account/requests/9');
    const comment = await screen.findByRole('textbox', { name: 'Комментарий' });
    await user.type(comment, 'Мастер придёт завтра{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posted).toEqual([{ text: 'Мастер придёт завтра', photos: [] }]));
    const historyList = screen.getByRole('list', { name: 'История' });
    expect(await within(historyList).findByText('Мастер придёт завтра')).toBeInTheDocument();
    await waitFor(() => expect(comment).toHaveValue(''));

    await user.click(screen.getByRole('button', { name: 'Взять в работу' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ status: 'in_progress' });
    expect(await within(historyList).findByText('Изменил(а) статус: Новая → В работе')).toBeInTheDocument();
    // The complaint was read again: in progress, so the buttons are those of in progress.
    await waitFor(() => expect(statusButtons()).toEqual(['Отметить решённой', 'Закрыть жалобу']));

    // An empty comment: the server's message under the box.
    server.use(
      http.post('/api/alerts/9/events', () =>
        HttpResponse.json(
          {
            message: 'Проверьте введённые данные.',
            errors: { text: ['Напишите комментарий, приложите фото или измените статус.'] },
          },
          { status: 422 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Отправить комментарий' }));
    await waitFor(() =>
      expect(comment).toHaveAccessibleDescription(
        /Напишите комментарий, приложите фото или измените статус\./,
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Исправьте следующие ошибки');
  });

  it('offers only the statuses the complaint may move to, and asks before closing it for good', async () => {
    const user = userEvent.setup();
    const posted = serveComplaint(buildComplaint({ id: 9, status: 'new' }));
    await renderRequests('/account/requests/9');
    await screen.findByRole('heading', { level: 2, name: 'Печь не греет' });
    expect(statusButtons()).toEqual(['Взять в работу', 'Отметить решённой', 'Закрыть жалобу']);

    await user.click(screen.getByRole('button', { name: 'Отметить решённой' }));
    await waitFor(() => expect(statusButtons()).toEqual(['Открыть снова', 'Закрыть жалобу']));
    expect(posted).toEqual([{ status: 'resolved' }]);

    // Closing asks first; cancelling sends nothing.
    await user.click(screen.getByRole('button', { name: 'Закрыть жалобу' }));
    let dialog = await screen.findByRole('dialog', { name: 'Закрыть жалобу «Печь не греет»?' });
    expect(dialog).toHaveTextContent('Закрытую жалобу нельзя открыть снова.');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Закрыть жалобу' }));
    dialog = await screen.findByRole('dialog', { name: 'Закрыть жалобу «Печь не греет»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Закрыть жалобу' }));
    await waitFor(() => expect(posted).toEqual([{ status: 'resolved' }, { status: 'closed' }]));
    await waitFor(() => expect(statusButtons()).toEqual([]));
    expect(screen.getByText('Жалоба закрыта.')).toBeInTheDocument();
    // Closed: comments only, no assignee or priority to change.
    expect(screen.queryByRole('combobox', { name: 'Исполнитель' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Приоритет' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Комментарий' })).toBeEnabled();
  });

  it('changes the assignee and the priority', async () => {
    const user = userEvent.setup();
    const posted = serveComplaint(buildComplaint({ id: 9, priority: 'normal' }));
    await renderRequests('/account/requests/9');
    await screen.findByRole('heading', { level: 2, name: 'Печь не греет' });
    // Disabled users, and users whose role lacks complaints, are not offered.
    await user.click(screen.getByRole('combobox', { name: 'Исполнитель' }));
    expect(screen.queryByRole('option', { name: 'Уволенный' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Пекарь' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Борис Техник' }));
    await waitFor(() => expect(posted).toEqual([{ assignee_id: 2 }]));
    await waitFor(() => expect(document.body).toHaveTextContent('Исполнитель: Борис Техник'));

    await choose(screen.getByRole('combobox', { name: 'Приоритет' }), 'Срочный');
    await waitFor(() => expect(posted).toEqual([{ assignee_id: 2 }, { priority: 'urgent' }]));
    expect(await screen.findByText('Изменил(а) приоритет на «Срочный»')).toBeInTheDocument();
  });

  it('says so when the complaint is not there (another organisation’s is not found either)', async () => {
    server.use(
      http.get('/api/alerts/404', () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 })),
      http.get('/api/alerts/404/events', () =>
        HttpResponse.json({ message: 'Не найдено.' }, { status: 404 }),
      ),
    );
    await renderRequests('/account/requests/404');
    expect(await screen.findByText('Жалоба не найдена')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Комментарий' })).toBeNull();
  });
});
