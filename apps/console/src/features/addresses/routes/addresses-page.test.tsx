import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuthUser } from '../../../test/server';
import { buildAddress, buildDevice, buildRoom, renderAddresses } from '../testing';

const arbat = buildAddress({ id: 1, name: 'Арбат', city: 'Москва', full_address: 'ул. Арбат, 10' });
const bistro = buildAddress({ id: 2, name: 'Бистро', city: 'Казань', full_address: 'ул. Баумана, 5' });
const volga = buildAddress({
  id: 3,
  name: 'Волга',
  city: 'Самара',
  full_address: 'Невский тупик, 1',
  time_zone: 'Europe/Samara',
  devices_count: 9,
});
const kitchen = buildRoom({ id: 11, address_id: 1 });
const bar = buildRoom({ id: 12, address_id: 1 });
const oven = buildDevice({ id: 21, room_id: 11, address_id: 1 });

const show = (url: string, user = buildAuthUser(['addresses', 'devices'])) =>
  renderAddresses(url, { user, addresses: [volga, arbat, bistro], rooms: [kitchen, bar], devices: [oven] });

/** The first cell of each body row, top to bottom. */
function names() {
  return within(screen.getByRole('table', { name: 'Адреса' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
}

/** Waits until the table shows `expected` (the URL changes first, the table right after). */
async function expectNames(expected: string[]) {
  await screen.findByRole('table', { name: 'Адреса' });
  await waitFor(() => expect(names()).toEqual(expected));
}

describe('addresses list', () => {
  it('lists every address by name, with its city, address, time zone, rooms and devices', async () => {
    show('/account/addresses');
    await expectNames(['Арбат', 'Бистро', 'Волга']);
    const table = screen.getByRole('table', { name: 'Адреса' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[↑↓↕]/g, ''));
    expect(headers).toEqual([
      'Название',
      'Город',
      'Полный адрес',
      'Часовой пояс',
      'Помещения',
      'Оборудование',
    ]);
    const arbatRow = within(table).getAllByRole('row')[1]!;
    expect(
      within(arbatRow)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Арбат', 'Москва', 'ул. Арбат, 10', 'Europe/Moscow', '2', '1']);
    expect(within(arbatRow).getByRole('link', { name: 'Арбат' })).toHaveAttribute(
      'href',
      '/account/addresses/1',
    );
    expect(screen.getByRole('link', { name: 'Добавить адрес' })).toHaveAttribute(
      'href',
      '/account/addresses/add',
    );
  });

  it('takes device counts from the address when the user may not see devices', async () => {
    show('/account/addresses?q=Волга', buildAuthUser(['addresses']));
    const table = await screen.findByRole('table', { name: 'Адреса' });
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent).slice(-2)).toEqual(['0', '9']);
  });

  it('searches name, city and full address, from the URL and into it', async () => {
    const { router } = show('/account/addresses?q=невский');
    await expectNames(['Волга']);
    const search = screen.getByRole('searchbox', { name: 'Поиск' });
    expect(search).toHaveValue('невский');

    const user = userEvent.setup({ delay: null });
    await user.clear(search);
    await user.paste('казань');
    await waitFor(() => expect(router.state.location.search).toBe('?q=%D0%BA%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C'));
    await expectNames(['Бистро']);

    await user.clear(search);
    await user.paste('кафе нигде');
    expect(await screen.findByRole('status')).toHaveTextContent('Записей не найдено');

    // A link (or back and forward) changes the URL from outside: the list and the box follow it.
    await router.navigate('/account/addresses?q=%D0%B0%D1%80%D0%B1%D0%B0%D1%82');
    await expectNames(['Арбат']);
    expect(search).toHaveValue('арбат');
  });

  it('sorts by name or city through the URL: headers change it, a link restores it', async () => {
    const { router } = show('/account/addresses?sort=-name');
    await expectNames(['Волга', 'Бистро', 'Арбат']);
    expect(screen.getByRole('columnheader', { name: 'Название' })).toHaveAttribute('aria-sort', 'descending');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Город' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=city'));
    await expectNames(['Бистро', 'Арбат', 'Волга']);
    await user.click(screen.getByRole('button', { name: 'Город' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=-city'));
    await expectNames(['Волга', 'Арбат', 'Бистро']);

    // Each sort is a step in history: back returns to the previous order.
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?sort=city'));
    await expectNames(['Бистро', 'Арбат', 'Волга']);
  });

  it('filters by city from the URL', async () => {
    show('/account/addresses?city=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C');
    await expectNames(['Бистро']);
    expect(screen.getByRole('combobox', { name: 'Город' })).toHaveValue('Казань');
  });

  it('says "No records found" when there are no addresses at all', async () => {
    renderAddresses('/account/addresses');
    expect(await screen.findByRole('status')).toHaveTextContent('Записей не найдено');
    expect(screen.getByRole('link', { name: 'Добавить адрес' })).toBeInTheDocument();
  });
});
