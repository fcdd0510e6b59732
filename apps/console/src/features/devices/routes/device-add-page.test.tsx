import type { DeviceBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { hoursField, shownTime, typeTime } from '../../../test/time-fields';
import { buildDevice, renderEquipment, withinLimits } from '../test/fixtures';

afterEach(() => queryClient.clear());

async function fillRequired() {
  await userEvent.type(screen.getByRole('textbox', { name: /Название/ }), 'Печь 3');
  await userEvent.click(screen.getByRole('combobox', { name: /Тип/ }));
  await userEvent.click(screen.getByRole('option', { name: 'Пароконвектомат' }));
  await userEvent.click(screen.getByRole('combobox', { name: /Помещение/ }));
  await userEvent.click(screen.getByRole('option', { name: 'Горячий цех · Тверская, 1' }));
}

describe('adding a device', { timeout: 30_000 }, () => {
  it('shows the server’s field errors under the fields and under "Please fix the following errors"', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/devices/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          {
            message: 'Проверьте поля.',
            errors: {
              controller_id: ['Этот идентификатор контроллера уже занят.'],
              shift_start: ['Укажите время в формате ЧЧ:ММ.'],
            },
          },
          { status: 422 },
        );
      }),
    );
    await renderEquipment('/account/devices/add');
    await fillRequired();
    await userEvent.type(screen.getByRole('textbox', { name: /Идентификатор контроллера/ }), 'oven-1');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить устройство' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Исправьте следующие ошибки');
    expect(screen.getByRole('textbox', { name: /Идентификатор контроллера/ })).toHaveAccessibleDescription(
      /Этот идентификатор контроллера уже занят\./,
    );
    expect(hoursField('Начало смены')).toHaveAccessibleDescription(/Укажите время в формате ЧЧ:ММ\./);
    // The body is deviceBodySchema's: empty fields as null, ids as numbers.
    expect(sent).toEqual({
      name: 'Печь 3',
      type_id: 1,
      room_id: 1,
      serial_number: null,
      controller_id: 'oven-1',
      template_id: null,
      shift_start: null,
      wash_interval_hours: null,
      service_interval_days: null,
      next_service_date: null,
      notes: null,
    } satisfies DeviceBody);
  });

  it('shows the credential of a new smart device once, then opens its page without it', async () => {
    const created = buildDevice({
      id: 7,
      name: 'Печь 3',
      controller_id: 'oven-3',
      has_credential: true,
      credential_issued_at: '2026-11-10T12:00:00.000Z',
    });
    let listReloads = 0;
    server.use(
      http.post('/api/devices/', () =>
        HttpResponse.json({ data: { ...created, credential: 'kdc_s3cret' } }, { status: 201 }),
      ),
      http.get('/api/devices/', () => {
        listReloads += 1;
        return HttpResponse.json({ data: [created] });
      }),
      http.get('/api/devices/7', () => HttpResponse.json({ data: created })),
      withinLimits,
    );
    const { router } = await renderEquipment('/account/devices/add');
    await fillRequired();
    await userEvent.type(screen.getByRole('textbox', { name: /Идентификатор контроллера/ }), 'oven-3');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить устройство' }));

    const dialog = await screen.findByRole('dialog', { name: 'Ключ подключения устройства' });
    expect(within(dialog).getByRole('textbox', { name: 'Ключ подключения' })).toHaveValue('kdc_s3cret');
    expect(dialog).toHaveTextContent('Ключ показывается только один раз');
    expect(within(dialog).getByRole('button', { name: 'Скопировать' })).toBeInTheDocument();
    // docs/contract.md, "States and transitions": the devices list is reloaded after the change.
    await waitFor(() => expect(listReloads).toBe(1));
    // Still on the add page until the key is acknowledged.
    expect(router.state.location.pathname).toBe('/account/devices/add');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Ключ сохранён' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/devices/7'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Печь 3' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body).not.toHaveTextContent('kdc_s3cret');
    expect(screen.queryByDisplayValue('kdc_s3cret')).toBeNull();
    // Back does not bring it back either: the add page was replaced.
    await router.navigate(-1);
    expect(document.body).not.toHaveTextContent('kdc_s3cret');
  });

  it('opens the page of a new device that is not smart at once, its shift start sent as HH:MM', async () => {
    const created = buildDevice({ id: 8, name: 'Печь 3' });
    let sent: DeviceBody | undefined;
    server.use(
      http.post('/api/devices/', async ({ request }) => {
        sent = (await request.json()) as DeviceBody;
        return HttpResponse.json({ data: { ...created, credential: null } }, { status: 201 });
      }),
      http.get('/api/devices/', () => HttpResponse.json({ data: [created] })),
      http.get('/api/devices/8', () => HttpResponse.json({ data: created })),
    );
    const { router } = await renderEquipment('/account/devices/add');
    await fillRequired();
    // A 24-hour clock, typed as digits.
    await typeTime(userEvent.setup(), 'Начало смены', '18:30');
    expect(shownTime('Начало смены')).toBe('18:30');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить устройство' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/devices/8'));
    expect(sent?.shift_start).toBe('18:30');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
