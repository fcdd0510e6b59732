import { DEFAULT_USER_SETTINGS, type UserSettings } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { server } from '../test/server';
import { hoursField, shownTime, typeTime } from '../test/time-fields';
import { NotificationSettingsForm } from './notification-settings-form';
import { useSaveUserSettings, useUserSettings } from '../lib/user-settings';

configure({ asyncUtilTimeout: 5_000 });
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}

afterEach(() => queryClient.clear());

const saved: UserSettings = { ...DEFAULT_USER_SETTINGS, locale: 'ru' };

/** The form as the user and profile pages use it: loaded and saved through lib/user-settings.ts. */
function Form({ userId }: { userId: number }) {
  return <NotificationSettingsForm settings={useUserSettings(userId)} save={useSaveUserSettings(userId)} />;
}

function renderForm(userId = 2) {
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <Form userId={userId} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('the notification settings form', { timeout: 30_000 }, () => {
  it('loads a user’s settings, and posts the whole settings back as changed', async () => {
    const posted: unknown[] = [];
    server.use(
      http.get('/api/users/2/settings', () => HttpResponse.json({ data: saved })),
      http.post('/api/users/2/settings', async ({ request }) => {
        const body = (await request.json()) as UserSettings;
        posted.push(body);
        if (posted.length === 1) {
          return HttpResponse.json(
            {
              message: 'Проверьте поля.',
              errors: { 'quiet_hours.end': ['Начало и конец тихих часов совпадают.'] },
            },
            { status: 422 },
          );
        }
        return HttpResponse.json({ data: body });
      }),
    );
    renderForm();
    // As loaded: every channel, every kind, warnings and critical ones, no quiet hours.
    expect(await screen.findByRole('checkbox', { name: /В консоли/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Жалобы' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Ток выше нормы' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Информация' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Авария' })).toBeChecked();
    expect(
      screen.getByRole('switch', { name: 'Задерживать письма и сообщения в Telegram' }),
    ).not.toBeChecked();
    expect(screen.queryByRole('group', { name: 'С' })).toBeNull();
    expect(screen.getByRole('combobox', { name: /Часовой пояс/ })).toHaveValue('Europe/Moscow');

    await userEvent.click(screen.getByRole('checkbox', { name: /Telegram/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Нет данных' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Информация' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Задерживать письма и сообщения в Telegram' }));
    // Typed as digits, hours then minutes, on a 24-hour clock.
    const user = userEvent.setup();
    await typeTime(user, 'С', '23:00');
    await typeTime(user, 'До', '23:00');
    expect(shownTime('С')).toBe('23:00');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Аварийные приходят всё равно' }));
    await userEvent.click(screen.getByRole('combobox', { name: /Язык сообщений/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'English' }));
    const zone = screen.getByRole('combobox', { name: /Часовой пояс/ });
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Yekat');
    await userEvent.click(await screen.findByRole('option', { name: 'Asia/Yekaterinburg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить настройки уведомлений' }));

    // The server's message shows under "Until".
    expect(await screen.findByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(hoursField('До')).toHaveAccessibleDescription('Начало и конец тихих часов совпадают.');

    await typeTime(user, 'До', '07:30');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить настройки уведомлений' }));
    expect(await screen.findByText('Сохранено.')).toBeInTheDocument();
    expect(posted[1]).toEqual({
      channels: { web: true, email: true, telegram: false },
      kinds: [
        'current_above',
        'current_below',
        'state_too_long',
        'error_code',
        'door_open_while_heating',
        'manual',
        'request',
        'device_limit',
      ],
      severities: ['info', 'warning', 'critical'],
      quiet_hours: { start: '23:00', end: '07:30' },
      quiet_hours_critical: false,
      locale: 'en',
      time_zone: 'Asia/Yekaterinburg',
    });
  });

  it('shows saved quiet hours on a 24-hour clock and posts them back as HH:MM, unchanged', async () => {
    let posted: unknown;
    server.use(
      http.get('/api/users/4/settings', () =>
        HttpResponse.json({ data: { ...saved, quiet_hours: { start: '18:30', end: '06:05' } } }),
      ),
      http.post('/api/users/4/settings', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ data: posted });
      }),
    );
    renderForm(4);
    await screen.findByRole('group', { name: 'С' });
    expect(shownTime('С')).toBe('18:30');
    expect(shownTime('До')).toBe('06:05');
    expect(document.body.textContent).not.toMatch(/AM|PM/);
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить настройки уведомлений' }));
    await waitFor(() => expect(posted).toMatchObject({ quiet_hours: { start: '18:30', end: '06:05' } }));
  });

  it('sends no quiet hours when they are off', async () => {
    let posted: unknown;
    server.use(
      http.get('/api/users/5/settings', () =>
        HttpResponse.json({ data: { ...saved, quiet_hours: { start: '22:00', end: '06:00' } } }),
      ),
      http.post('/api/users/5/settings', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ data: posted });
      }),
    );
    renderForm(5);
    await screen.findByRole('group', { name: 'С' });
    expect(shownTime('С')).toBe('22:00');
    await userEvent.click(screen.getByRole('switch', { name: 'Задерживать письма и сообщения в Telegram' }));
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить настройки уведомлений' }));
    await waitFor(() => expect(posted).toMatchObject({ quiet_hours: null }));
  });

  it('says when the settings could not be loaded', async () => {
    server.use(
      http.get('/api/users/6/settings', () =>
        HttpResponse.json({ message: 'Нет доступа.' }, { status: 403 }),
      ),
    );
    renderForm(6);
    expect(
      await screen.findByText('Не удалось загрузить настройки уведомлений. Повторите попытку позже.'),
    ).toBeInTheDocument();
  });
});
