import type { DeviceIngestDay, DeviceLimits } from '@kontrol/contracts';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { buildDevice, renderEquipment } from '../test/fixtures';

afterEach(() => queryClient.clear());
beforeEach(() => {
  server.use(
    http.get('/api/devices/info/last_online', () =>
      HttpResponse.json({ data: { id: 5, last_utc: null, intervals: [] } }),
    ),
  );
});

const HOUR = 3_600_000;
const oven = buildDevice({ id: 5, name: 'Печь 1', controller_id: 'oven-1', has_credential: true });
const LIMITS: DeviceLimits['limits'] = {
  connections: 4,
  in_flight: 16,
  samples_per_second: 2,
  burst_samples: 30_000,
  samples_per_day: 150_000,
};
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function serveLimits(days: DeviceIngestDay[]) {
  const asked: string[] = [];
  server.use(
    http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
    http.get('/api/devices/5/limits', ({ request }) => {
      asked.push(request.url);
      return HttpResponse.json({ data: { limits: LIMITS, days } });
    }),
  );
  return asked;
}

// Texts are matched with their whitespace collapsed: Russian groups digits with a no-break space.
describe('the device’s limits on its connection tab', { timeout: 30_000 }, () => {
  it('marks a device that sent more than its limit in the last 24 hours: how much, when and why', async () => {
    const now = Date.now();
    const lastRefused = new Date(now - 2 * HOUR);
    const asked = serveLimits([
      {
        day: utcDay(now),
        samples: 31_250,
        refused: 1_234,
        last_refused_at: lastRefused.toISOString(),
        last_reason: 'rate',
      },
    ]);
    await renderEquipment('/account/devices/5', { devices: [oven] });

    const section = await screen.findByRole('region', { name: 'Лимиты' });
    const mark = await within(section).findByRole('alert');
    expect(mark).toHaveTextContent('Отправляет больше лимита');
    const time = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' }).format(lastRefused);
    // The console's one date format (lib/format.ts): 27.11.2026.
    const day = new Date(now).toISOString().slice(0, 10).split('-').reverse().join('.');
    expect(mark).toHaveTextContent(
      `Отклонено сообщений за ${day} (UTC): 1 234, последнее в ${time}: больше 2 показаний в секунду.`,
    );
    expect(mark).toHaveTextContent('проверьте настройки и прошивку контроллера');
    expect(section).toHaveTextContent('Показаний сегодня (UTC): 31 250 из 150 000.');
    expect(section).toHaveTextContent(
      'Не больше 2 показаний в секунду в среднем и 30 000 разом; 4 соединений и 16 сообщений одновременно.',
    );
    expect(asked).toHaveLength(1);
  });

  it('shows no mark for a device within its limits, or whose last refusal is over a day old', async () => {
    const now = Date.now();
    serveLimits([
      { day: utcDay(now), samples: 8_640, refused: 0, last_refused_at: null, last_reason: null },
      {
        day: utcDay(now - 3 * 24 * HOUR),
        samples: 150_000,
        refused: 40,
        last_refused_at: new Date(now - 3 * 24 * HOUR).toISOString(),
        last_reason: 'day',
      },
    ]);
    await renderEquipment('/account/devices/5', { devices: [oven] });

    const section = await screen.findByRole('region', { name: 'Лимиты' });
    expect(
      await within(section).findByText('Показаний сегодня (UTC): 8 640 из 150 000.'),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Отправляет больше лимита')).toBeNull();
  });

  it('names each reason', async () => {
    const now = Date.now();
    const reasons = {
      connections: 'больше 4 соединений одновременно',
      in_flight: 'больше 16 сообщений одновременно',
      day: 'больше 150 000 показаний за сутки',
      packet_size: 'сообщения больше 4 МБ',
    } as const;
    for (const [reason, text] of Object.entries(reasons)) {
      serveLimits([
        {
          day: utcDay(now),
          samples: 10,
          refused: 1,
          last_refused_at: new Date(now - HOUR).toISOString(),
          last_reason: reason as keyof typeof reasons,
        },
      ]);
      const view = await renderEquipment('/account/devices/5', { devices: [oven] });
      const mark = await screen.findByRole('alert');
      expect(mark).toHaveTextContent(`: ${text}.`);
      view.unmount();
      queryClient.clear();
    }
  });
});
