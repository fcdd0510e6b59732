import { ADDRESS_IMAGE_MAX_BYTES } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server } from '../../../test/server';
import { buildAddress, renderAddresses, serveLists } from '../testing';

// The preview only needs an object URL to exist; this one is known to the test.
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => vi.restoreAllMocks());
// The browser's picker already filters by `accept`; a drop or "all files" does not, hence the check.
const user = userEvent.setup({ applyAccept: false, delay: null });
const picker = () => screen.getByLabelText('Выбрать изображение', { selector: 'input' });
const image = (name: string, type: string, size = 1024) => new File([new Uint8Array(size)], name, { type });

/** Counts upload requests; none may be sent for a refused file. */
function countUploads(answer: () => Response = () => HttpResponse.json({ message: 'x' }, { status: 500 })) {
  const uploads: FormData[] = [];
  server.use(
    http.post('/api/addresses/:id/image', async ({ request }) => {
      uploads.push(await request.formData());
      return answer();
    }),
  );
  return uploads;
}

describe('address image', () => {
  const address = buildAddress({ id: 5, name: 'Арбат' });

  it('refuses a file that is not JPEG, PNG or WebP, before sending anything', async () => {
    const uploads = countUploads();
    renderAddresses('/account/addresses/5', { addresses: [address] });
    await screen.findByText('Изображения пока нет.');
    await user.upload(picker(), image('menu.gif', 'image/gif'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Выберите изображение JPEG, PNG или WebP.');
    expect(screen.queryByRole('button', { name: 'Загрузить' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    expect(uploads).toHaveLength(0);
  });

  it('refuses a file over the size limit, before sending anything', async () => {
    const uploads = countUploads();
    renderAddresses('/account/addresses/5', { addresses: [address] });
    await screen.findByText('Изображения пока нет.');
    await user.upload(picker(), image('big.png', 'image/png', ADDRESS_IMAGE_MAX_BYTES + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent('Изображение больше 5 МБ.');
    expect(screen.queryByRole('button', { name: 'Загрузить' })).toBeNull();
    expect(uploads).toHaveLength(0);
  });

  it('previews the chosen image, uploads it as `image`, then reloads addresses and rooms', async () => {
    const saved = { ...address, image_url: '/api/addresses/5/image?v=1793613600000' };
    let lists = { addresses: [address], rooms: [] as never[] };
    const calls = serveLists(() => lists);
    const uploads = countUploads(() => {
      lists = { addresses: [saved], rooms: [] };
      return HttpResponse.json({ data: saved });
    });
    renderAddresses('/account/addresses/5', { addresses: [address] });
    await screen.findByText('Изображения пока нет.');
    await user.upload(picker(), image('hall.webp', 'image/webp'));

    expect(screen.getByRole('img', { name: 'Предпросмотр выбранного изображения' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    expect(uploads).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Загрузить' }));

    await waitFor(() => expect(screen.getByText('Изображение сохранено.')).toBeInTheDocument());
    expect(uploads).toHaveLength(1);
    const sent = uploads[0]?.get('image') as File;
    expect([sent.name, sent.type, sent.size]).toEqual(['hall.webp', 'image/webp', 1024]);
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
    expect(screen.getByRole('img', { name: 'Изображение: Арбат' })).toHaveAttribute(
      'src',
      '/api/addresses/5/image?v=1793613600000',
    );
  });

  it('removes the image only after confirmation', async () => {
    const withImage = { ...address, image_url: '/api/addresses/5/image' };
    const calls = serveLists(() => ({ addresses: [{ ...address }], rooms: [] }));
    let deleted = 0;
    server.use(
      http.delete('/api/addresses/5/image', () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderAddresses('/account/addresses/5', { addresses: [withImage] });
    await user.click(await screen.findByRole('button', { name: 'Удалить изображение' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить изображение адреса «Арбат»?' });
    expect(deleted).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.getByText('Изображения пока нет.')).toBeInTheDocument());
    expect(deleted).toBe(1);
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
  });
});
