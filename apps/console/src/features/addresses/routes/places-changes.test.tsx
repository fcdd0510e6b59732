import type { AddressBody, RoomBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../test/server';
import { buildAddress, buildDevice, buildRoom, renderAddresses, serveLists } from '../testing';

const user = userEvent.setup({ delay: null });
const arbat = buildAddress({ id: 5, name: 'Арбат', city: 'Москва' });
const bistro = buildAddress({ id: 6, name: 'Бистро', city: 'Казань' });
const kitchen = buildRoom({ id: 50, address_id: 5, name: 'Горячий цех', floor: '1', devices_count: 1 });
const oven = buildDevice({ id: 70, name: 'Печь Rational', room_id: 50, address_id: 5 });

async function replaceText(label: string, text: string) {
  const field = screen.getByRole('textbox', { name: label });
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

describe('after a change, addresses and rooms are both reloaded without cache (docs/contract.md, "States and transitions")', () => {
  it('creating an address reloads both lists, then opens the new address', async () => {
    const created = buildAddress({ id: 9, name: 'Кафе на Тверской' });
    let lists = { addresses: [arbat], rooms: [kitchen] };
    const calls = serveLists(() => lists);
    let body: AddressBody | undefined;
    server.use(
      http.post('/api/addresses/', async ({ request }) => {
        body = (await request.json()) as AddressBody;
        lists = { addresses: [arbat, created], rooms: [kitchen] };
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
    );
    const { router } = renderAddresses('/account/addresses/add', { addresses: [arbat], rooms: [kitchen] });
    await screen.findByRole('group', { name: 'Время работы' });
    await replaceText('Название', 'Кафе на Тверской');
    await replaceText('Город', 'Москва');
    await replaceText('Полный адрес', 'Тверская ул., 1');
    await replaceText('Широта', '55,7558');
    await replaceText('Долгота', '37.6173');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/account/addresses/9'));
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
    expect(body).toMatchObject({ name: 'Кафе на Тверской', latitude: 55.7558, longitude: 37.6173 });
    expect(await screen.findByText('Кафе на Тверской')).toBeInTheDocument();
  });

  it('editing an address reloads both lists and says it is saved', async () => {
    const calls = serveLists(() => ({ addresses: [{ ...arbat, name: 'Арбат, 10' }], rooms: [kitchen] }));
    let body: AddressBody | undefined;
    server.use(
      http.put('/api/addresses/5', async ({ request }) => {
        body = (await request.json()) as AddressBody;
        return HttpResponse.json({ data: { ...arbat, ...body } });
      }),
    );
    renderAddresses('/account/addresses/5', { addresses: [arbat], rooms: [kitchen], devices: [oven] });
    const details = await screen.findByRole('region', { name: 'Основные сведения' });
    await replaceText('Название', 'Арбат, 10');
    await user.click(within(details).getByRole('button', { name: 'Сохранить' }));

    expect(await within(details).findByRole('status')).toHaveTextContent('Сохранено.');
    expect(body).toMatchObject({ name: 'Арбат, 10', time_zone: 'Europe/Moscow' });
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
    expect(screen.getByText('Арбат, 10', { selector: 'p' })).toBeInTheDocument();
  });

  it('the address page lists its rooms and devices, and offers a room with the address preselected', async () => {
    renderAddresses('/account/addresses/5', {
      addresses: [arbat, bistro],
      rooms: [kitchen],
      devices: [oven],
    });
    const rooms = await screen.findByRole('region', { name: 'Помещения' });
    expect(within(rooms).getByRole('link', { name: 'Горячий цех' })).toHaveAttribute(
      'href',
      '/account/addresses/room/50',
    );
    expect(within(rooms).getByRole('link', { name: 'Добавить помещение' })).toHaveAttribute(
      'href',
      '/account/addresses/room/add?address_id=5',
    );
    const devices = screen.getByRole('table', { name: 'Оборудование' });
    const row = within(devices).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Печь Rational', 'Горячий цех', 'Пароконвектомат']);
    expect(within(row).getByRole('link', { name: 'Печь Rational' })).toHaveAttribute(
      'href',
      '/account/devices/70',
    );
  });

  it('creating a room keeps the preselected address, reloads both lists and opens the room', async () => {
    const created = buildRoom({ id: 51, address_id: 6, name: 'Мойка' });
    let lists = { addresses: [arbat, bistro], rooms: [kitchen] };
    const calls = serveLists(() => lists);
    let body: RoomBody | undefined;
    server.use(
      http.post('/api/rooms/', async ({ request }) => {
        body = (await request.json()) as RoomBody;
        lists = { addresses: [arbat, bistro], rooms: [kitchen, created] };
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
    );
    const { router } = renderAddresses('/account/addresses/room/add?address_id=6', {
      addresses: [arbat, bistro],
      rooms: [kitchen],
    });
    expect(await screen.findByRole('combobox', { name: 'Адрес' })).toHaveValue('Бистро, Казань');
    await replaceText('Название', 'Мойка');
    await replaceText('Этаж', '-1');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/account/addresses/room/51'));
    expect(body).toEqual({ name: 'Мойка', address_id: 6, floor: '-1', description: '' });
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
    expect(await screen.findByRole('link', { name: '← Бистро' })).toHaveAttribute(
      'href',
      '/account/addresses/6',
    );
  });

  it('deleting a room reloads both lists and returns to its address', async () => {
    const empty = { ...kitchen, devices_count: 0 };
    const calls = serveLists(() => ({ addresses: [arbat], rooms: [] }));
    server.use(http.delete('/api/rooms/50', () => new HttpResponse(null, { status: 204 })));
    const { router } = renderAddresses('/account/addresses/room/50', { addresses: [arbat], rooms: [empty] });
    await user.click(await screen.findByRole('button', { name: 'Удалить помещение' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить помещение «Горячий цех»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/addresses/5'));
    expect(calls).toEqual({ addresses: 1, rooms: 1 });
  });
});

describe('a deletion the server refuses', () => {
  it('shows why an address with rooms cannot be deleted, and stays', async () => {
    const calls = serveLists(() => ({ addresses: [arbat], rooms: [kitchen] }));
    server.use(
      http.delete('/api/addresses/5', () =>
        HttpResponse.json(
          {
            message: 'Проверьте введённые данные.',
            errors: { address: ['Адрес нельзя удалить: в нём есть помещения или оборудование.'] },
          },
          { status: 422 },
        ),
      ),
    );
    const { router } = renderAddresses('/account/addresses/5', { addresses: [arbat], rooms: [kitchen] });
    await user.click(await screen.findByRole('button', { name: 'Удалить адрес' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить адрес «Арбат»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(alert).toHaveTextContent('Адрес нельзя удалить: в нём есть помещения или оборудование.');
    expect(router.state.location.pathname).toBe('/account/addresses/5');
    expect(calls).toEqual({ addresses: 0, rooms: 0 });
  });

  it('shows why a room with devices cannot be deleted', async () => {
    server.use(
      http.delete('/api/rooms/50', () =>
        HttpResponse.json(
          { message: 'Проверьте введённые данные.', errors: { room: ['В помещении есть оборудование.'] } },
          { status: 422 },
        ),
      ),
    );
    renderAddresses('/account/addresses/room/50', { addresses: [arbat], rooms: [kitchen], devices: [oven] });
    expect(await screen.findByRole('link', { name: 'Печь Rational' })).toHaveAttribute(
      'href',
      '/account/devices/70',
    );
    await user.click(screen.getByRole('button', { name: 'Удалить помещение' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить помещение «Горячий цех»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('В помещении есть оборудование.');
  });

  it('an unknown address id says so, with the way back', async () => {
    server.use(
      http.get('/api/addresses/404', () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 })),
    );
    renderAddresses('/account/addresses/404', { addresses: [arbat] });
    expect(await screen.findByText('Такого адреса нет или он удалён.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Все адреса' })).toHaveAttribute('href', '/account/addresses');
  });
});
