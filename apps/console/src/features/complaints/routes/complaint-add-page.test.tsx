import { COMPLAINT_MAX_PHOTOS, type ComplaintBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { PHOTO_MAX_BYTES } from '../use-photo-uploads';
import { buildComplaint, buildComplaintEvent, choose, renderRequests } from '../test/fixtures';

afterEach(() => queryClient.clear());

// The browser's picker already filters by `accept`; a drop or "all files" does not, hence the check.
const user = userEvent.setup({ applyAccept: false, delay: null });
const picker = () => screen.getByLabelText('Приложить фото', { selector: 'input' });
const image = (name: string, type = 'image/jpeg', size = 1024) =>
  new File([new Uint8Array(size)], name, { type });
const photoName = (n: number) => `${String(n).repeat(32)}.jpg`;

/** Serves photo uploads, each getting the next name; counts them. */
function servePhotos() {
  const uploads: File[] = [];
  server.use(
    http.post('/api/alerts/photo', async ({ request }) => {
      uploads.push((await request.formData()).get('photo') as File);
      const photo = photoName(uploads.length);
      return HttpResponse.json({ data: { photo, url: `/api/alerts/photo/${photo}` } }, { status: 201 });
    }),
  );
  return uploads;
}

describe('filing a complaint', { timeout: 30_000 }, () => {
  it('shows the server’s field errors under the fields and under "Please fix the following errors"', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/alerts/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          {
            message: 'Проверьте введённые данные.',
            errors: {
              title: ['Обязательное поле.'],
              device_id: ['Укажите оборудование или адрес.'],
              photos: ['Фото не найдено.'],
            },
          },
          { status: 422 },
        );
      }),
    );
    const { router } = await renderRequests('/account/requests/add');
    await user.type(screen.getByRole('textbox', { name: 'Описание проблемы' }), 'Не греет');
    await user.click(screen.getByRole('button', { name: 'Подать жалобу' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Исправьте следующие ошибки');
    expect(screen.getByRole('textbox', { name: /Заголовок/ })).toHaveAccessibleDescription(
      /Обязательное поле\./,
    );
    expect(screen.getByRole('combobox', { name: 'Устройство' })).toHaveAccessibleDescription(
      /Укажите оборудование или адрес\./,
    );
    expect(screen.getByRole('group', { name: 'Фото' })).toHaveTextContent('Фото не найдено.');
    expect(sent).toEqual({
      title: '',
      text: 'Не греет',
      priority: 'normal',
      device_id: null,
      address_id: null,
      assignee_id: null,
      photos: [],
    } satisfies ComplaintBody);
    expect(router.state.location.pathname).toBe('/account/requests/add');
  });

  it('files a complaint about the device of the link, with photos, then opens its page', async () => {
    const uploads = servePhotos();
    let sent: unknown;
    const created = buildComplaint({ id: 7, title: 'Печь не греет', priority: 'high' });
    server.use(
      http.post('/api/alerts/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.get('/api/alerts/7', () => HttpResponse.json({ data: created })),
      http.get('/api/alerts/7/events', () =>
        HttpResponse.json({ data: [buildComplaintEvent({ alert_id: 7 })] }),
      ),
    );
    const { router } = await renderRequests('/account/requests/add?device=2');
    // The device of the link is chosen, and its address goes with it.
    expect(screen.getByRole('combobox', { name: 'Устройство' })).toHaveValue('Фритюрница · Тверская, 1');
    expect(screen.getByRole('combobox', { name: 'Адрес' })).toHaveValue('Тверская, 1');
    expect(screen.getByRole('combobox', { name: 'Адрес' })).toBeDisabled();

    await user.type(screen.getByRole('textbox', { name: /Заголовок/ }), 'Печь не греет');
    await choose(screen.getByRole('combobox', { name: 'Приоритет' }), 'Высокий');
    await choose(screen.getByRole('combobox', { name: 'Исполнитель' }), 'Борис Техник');

    // Two photos: each uploaded at once and shown; one removed before sending.
    await user.upload(picker(), [image('door.jpg'), image('panel.png', 'image/png')]);
    expect(await screen.findByRole('img', { name: 'Фото door.jpg' })).toHaveAttribute(
      'src',
      `/api/alerts/photo/${photoName(1)}`,
    );
    await screen.findByRole('img', { name: 'Фото panel.png' });
    expect(uploads.map((file) => file.type)).toEqual(['image/jpeg', 'image/png']);
    await user.click(screen.getByRole('button', { name: 'Убрать фото panel.png' }));
    expect(screen.queryByRole('img', { name: 'Фото panel.png' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Подать жалобу' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/requests/7'));
    expect(sent).toEqual({
      title: 'Печь не греет',
      text: '',
      priority: 'high',
      device_id: 2,
      address_id: null,
      assignee_id: 2,
      photos: [photoName(1)],
    } satisfies ComplaintBody);
    expect(await screen.findByRole('heading', { level: 2, name: 'Печь не греет' })).toBeInTheDocument();
  });

  it('files a complaint about an address when no device is chosen', async () => {
    let sent: ComplaintBody | undefined;
    server.use(
      http.post('/api/alerts/', async ({ request }) => {
        sent = (await request.json()) as ComplaintBody;
        return HttpResponse.json({ data: buildComplaint({ id: 8 }) }, { status: 201 });
      }),
      http.get('/api/alerts/8', () => HttpResponse.json({ data: buildComplaint({ id: 8 }) })),
      http.get('/api/alerts/8/events', () => HttpResponse.json({ data: [] })),
    );
    const { router } = await renderRequests('/account/requests/add');
    await user.type(screen.getByRole('textbox', { name: /Заголовок/ }), 'Шумит вытяжка');
    await choose(screen.getByRole('combobox', { name: 'Адрес' }), 'Арбат, 10');
    await user.click(screen.getByRole('button', { name: 'Подать жалобу' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/requests/8'));
    expect(sent).toMatchObject({ device_id: null, address_id: 2 });
  });

  it('refuses photos of another type, too large or too many before sending them, and shows the server’s refusal', async () => {
    const uploads = servePhotos();
    server.use(
      http.post(
        '/api/alerts/photo',
        () =>
          HttpResponse.json(
            { message: 'Проверьте введённые данные.', errors: { photo: ['Файл повреждён.'] } },
            { status: 422 },
          ),
        { once: true },
      ),
    );
    await renderRequests('/account/requests/add');
    await user.upload(picker(), [
      image('menu.gif', 'image/gif'),
      image('big.jpg', 'image/jpeg', PHOTO_MAX_BYTES + 1),
    ]);
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('«menu.gif» — не изображение JPEG, PNG или WebP.');
    expect(refusal).toHaveTextContent('«big.jpg» больше 5 МБ.');
    expect(uploads).toHaveLength(0);

    // The server refuses the first: its reason shows on the photo, which does not count.
    await user.upload(picker(), image('broken.jpg'));
    const photos = screen.getByRole('group', { name: 'Фото' });
    await waitFor(() => expect(within(photos).getByRole('alert')).toHaveTextContent('Файл повреждён.'));

    const many = Array.from({ length: COMPLAINT_MAX_PHOTOS + 1 }, (_, i) => image(`p${i}.jpg`));
    await user.upload(picker(), many);
    expect(
      await screen.findByText(
        `«p${COMPLAINT_MAX_PHOTOS}.jpg» не добавлено: не больше ${COMPLAINT_MAX_PHOTOS} фото.`,
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(uploads).toHaveLength(COMPLAINT_MAX_PHOTOS));
    expect(screen.getByRole('button', { name: 'Приложить фото' })).toBeDisabled();
  });
});
