import type { AddressBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../test/server';
import { hoursField, shownTime, typeTime } from '../../../test/time-fields';
import { buildAddress, renderAddresses, serveLists } from '../testing';

/** Captures the body of POST /api/addresses/ and answers with `answer`. */
function captureCreate(answer: () => Response) {
  const sent: { body?: AddressBody } = {};
  server.use(
    http.post('/api/addresses/', async ({ request }) => {
      sent.body = (await request.json()) as AddressBody;
      return answer();
    }),
  );
  return sent;
}

const user = userEvent.setup({ delay: null });

async function fill(label: string, text: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.paste(text);
}

async function fillRequired() {
  await fill('Название', 'Кафе на Тверской');
  await fill('Город', 'Москва');
  await fill('Полный адрес', 'Тверская ул., 1');
}

const setTime = (label: string, value: string) => typeTime(user, label, value);

describe('work-time editor', () => {
  it('starts Monday to Sunday 09:00–21:00 in Moscow time; a day switched off is sent as closed', async () => {
    const created = buildAddress({ id: 7 });
    serveLists(() => ({ addresses: [created], rooms: [] }));
    const sent = captureCreate(() => HttpResponse.json({ data: created }, { status: 201 }));
    renderAddresses('/account/addresses/add');

    const week = await screen.findByRole('group', { name: 'Время работы' });
    expect(within(week).getAllByRole('switch')).toHaveLength(7);
    expect(screen.getByRole('switch', { name: 'Понедельник' })).toBeChecked();
    expect(shownTime('Понедельник, открытие')).toBe('09:00');
    expect(shownTime('Воскресенье, закрытие')).toBe('21:00');
    expect(screen.getByRole('combobox', { name: 'Часовой пояс' })).toHaveValue('Europe/Moscow (UTC+03:00)');
    expect(screen.getByText(/работает после полуночи/)).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Вторник' }));
    expect(screen.queryByRole('group', { name: 'Вторник, открытие' })).toBeNull();
    const tuesdayRow = screen.getByRole('switch', { name: 'Вторник' }).closest('div.mantine-Group-root');
    expect(tuesdayRow).toHaveTextContent('Выходной');
    await setTime('Пятница, закрытие', '02:00');

    await fillRequired();
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent.body).toBeDefined());
    expect(sent.body).toMatchObject({
      name: 'Кафе на Тверской',
      city: 'Москва',
      full_address: 'Тверская ул., 1',
      time_zone: 'Europe/Moscow',
      latitude: null,
      longitude: null,
    });
    expect(sent.body?.work_time).toEqual({
      mon: { open: '09:00', close: '21:00' },
      tue: null,
      wed: { open: '09:00', close: '21:00' },
      thu: { open: '09:00', close: '21:00' },
      fri: { open: '09:00', close: '02:00' },
      sat: { open: '09:00', close: '21:00' },
      sun: { open: '09:00', close: '21:00' },
    });
  });

  it('switching a day back on brings its times back', async () => {
    renderAddresses('/account/addresses/add');
    await screen.findByRole('group', { name: 'Среда, открытие' });
    await setTime('Среда, открытие', '07:30');
    await user.click(screen.getByRole('switch', { name: 'Среда' }));
    await user.click(screen.getByRole('switch', { name: 'Среда' }));
    expect(shownTime('Среда, открытие')).toBe('07:30');
  });

  it('copies Monday to every day, closed days included', async () => {
    renderAddresses('/account/addresses/add');
    await user.click(await screen.findByRole('switch', { name: 'Воскресенье' }));
    expect(screen.queryByRole('group', { name: 'Воскресенье, открытие' })).toBeNull();
    await setTime('Понедельник, открытие', '08:00');
    await setTime('Понедельник, закрытие', '23:30');

    await user.click(screen.getByRole('button', { name: 'Скопировать понедельник на все дни' }));
    for (const day of ['Вторник', 'Среда', 'Четверг', 'Пятница', 'Суббота', 'Воскресенье']) {
      expect(screen.getByRole('switch', { name: day })).toBeChecked();
      expect(shownTime(`${day}, открытие`)).toBe('08:00');
      expect(shownTime(`${day}, закрытие`)).toBe('23:30');
    }
  });

  it('copies a closed Monday as closed', async () => {
    renderAddresses('/account/addresses/add');
    await user.click(await screen.findByRole('switch', { name: 'Понедельник' }));
    await user.click(screen.getByRole('button', { name: 'Скопировать понедельник на все дни' }));
    expect(screen.getByRole('switch', { name: 'Суббота' })).not.toBeChecked();
    expect(screen.getAllByText('Выходной')).toHaveLength(7);
  });

  it('shows the server’s messages under their day’s time and under the contract heading', async () => {
    captureCreate(() =>
      HttpResponse.json(
        {
          message: 'Проверьте введённые данные.',
          errors: {
            'work_time.mon.open': ['Укажите время в формате ЧЧ:ММ.'],
            'work_time.wed.close': ['Время открытия и закрытия совпадает.'],
            longitude: ['Укажите обе координаты или ни одной.'],
            organisation: ['Организация заблокирована.'],
          },
        },
        { status: 422 },
      ),
    );
    renderAddresses('/account/addresses/add');
    await screen.findByRole('group', { name: 'Время работы' });
    await fillRequired();
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    // A message with no field on the form is listed in the alert; the others stand under their fields.
    expect(alert).toHaveTextContent('Организация заблокирована.');
    expect(alert).not.toHaveTextContent('Укажите время');

    const mondayOpen = hoursField('Понедельник, открытие');
    expect(mondayOpen).toHaveAttribute('aria-invalid', 'true');
    expect(mondayOpen).toHaveAccessibleDescription('Укажите время в формате ЧЧ:ММ.');
    expect(hoursField('Среда, закрытие')).toHaveAccessibleDescription('Время открытия и закрытия совпадает.');
    expect(screen.getByRole('textbox', { name: 'Долгота' })).toHaveAccessibleDescription(
      'Укажите обе координаты или ни одной.',
    );
  });
});
