import type { Page } from '@playwright/test';
import { seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  databaseUrl,
  expect,
  expectNoAxeViolations,
  postCreated,
  signInWithApi,
  test,
  urlWithPath,
  everyMinute,
  sendSamples,
} from './support/fixtures';

/**
 * The dashboard (docs/dashboard.md) in a real browser, in Russian: an organisation of this spec's
 * own gets two smart combi ovens (one sends samples, one never has) and a fryer without a
 * controller; its admin opens the dashboard, reads the six counters, sees a device's day on the
 * graph, watches the counters follow a sample without a reload, follows the "offline" counter to
 * the devices list filtered by it, removes that filter, and reads an oven's problems view; then
 * narrows the dashboard to a device type and sees every widget follow (counters, graph, circles,
 * table, problems, activity naming the device). axe finds nothing to fix on the dashboard, the
 * filtered list or the problems view.
 */

/** An hour of an oven heating, one sample a minute, ending now. */
const heatingHour = (now: number) =>
  everyMinute(60, now, (i) => ({
    current: 25 + (i % 10),
    temperature: 180,
    door_open: false,
    state: 'heating',
  }));

/** A counter of the dashboard: a link whose text is its label and its number. */
function counter(page: Page, name: string) {
  return page.locator(`[data-dashboard-counter="${name}"]`);
}

test.describe('the dashboard', () => {
  // Building the organisation, ingesting and the first load of the pages on a loaded machine.
  test.describe.configure({ timeout: 90_000 });

  const unique = `-dashboard-${Date.now().toString(36)}-${process.pid}`;
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('counts the fleet, shows a device’s day, follows live samples and links to the filtered list', async ({
    page,
    request,
  }) => {
    await signInWithApi(page, org.admin);
    const names = {
      working: `Печь в работе${unique}`,
      silent: `Печь без связи${unique}`,
      fryer: `Фритюрница${unique}`,
    };
    let silentCredential = '';
    let silentId = 0;
    let workingId = 0;

    await test.step('two smart ovens, one of them sending samples, and a fryer without a controller', async () => {
      const address = await postCreated<{ id: number }>(page, '/api/addresses/', {
        name: `Кафе ${unique}`,
        full_address: 'Казань, ул. Баумана, 1',
        city: 'Казань',
        time_zone: 'Europe/Moscow',
        work_time: { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null },
      });
      const room = await postCreated<{ id: number }>(page, '/api/rooms/', {
        name: 'Горячий цех',
        address_id: address.id,
      });
      const types = (await (await page.request.get('/api/devices/types/')).json()) as {
        data: { data: { id: number; slug: string }[] };
      };
      const typeId = (slug: string) => {
        const type = types.data.data.find((one) => one.slug === slug);
        if (!type) throw new Error(`no ${slug} device type`);
        return type.id;
      };
      const working = await postCreated<{ id: number; credential: string | null }>(page, '/api/devices/', {
        name: names.working,
        type_id: typeId('combi_oven'),
        room_id: room.id,
        controller_id: `kw${unique}`,
      });
      const silent = await postCreated<{ id: number; credential: string | null }>(page, '/api/devices/', {
        name: names.silent,
        type_id: typeId('combi_oven'),
        room_id: room.id,
        controller_id: `ks${unique}`,
      });
      await postCreated(page, '/api/devices/', {
        name: names.fryer,
        type_id: typeId('fryer'),
        room_id: room.id,
      });
      if (!working.credential || !silent.credential)
        throw new Error('a smart device came without its credential');
      silentCredential = silent.credential;
      silentId = silent.id;
      workingId = working.id;
      await sendSamples(request, working.credential, heatingHour(Date.now()));
    });

    await test.step('the six counters, in the contract order', async () => {
      await page.goto('/account/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'Главная' })).toBeVisible();
      const counters = page.getByRole('list', { name: 'Счётчики' }).getByRole('link');
      await expect(counters).toHaveCount(6);
      await expect(counter(page, 'online')).toHaveText(/^В сети\s*1$/);
      await expect(counter(page, 'offline')).toHaveText(/^Не в сети\s*2$/);
      // Neither oven has completed a wash within its type's interval; neither has a template.
      await expect(counter(page, 'washOutdated')).toHaveText(/^Мойка просрочена\s*2$/);
      await expect(counter(page, 'workStartedSlow')).toHaveText(/^Поздний старт\s*0$/);
      await expect(counter(page, 'issueReports')).toHaveText(/^Проблемы\s*0$/);
      await expect(counter(page, 'devicesWithoutTmplNorma')).toHaveText(/^Без нормы тока\s*2$/);
      await expect(counter(page, 'offline')).toHaveAttribute('href', '/account/devices?counter=offline');

      const table = page.getByRole('table', { name: 'Оборудование' });
      await expect(table).toHaveAttribute('aria-rowcount', '4');
      // The circles hold what the counters count: the fryer and the silent oven offline, the
      // working oven online, needing attention (its wash is overdue), and the legend says why.
      const circles = page.getByRole('region', { name: 'Статусы устройств' });
      await expect(circles.getByText('В сети: 1')).toBeVisible();
      await expect(circles.getByText('Не в сети: 2')).toBeVisible();
      await expect(circles.getByText('из них требуют внимания: 1')).toBeVisible();
      await expect(circles.getByText(/^Требует внимания \(красный ромб\):/)).toBeVisible();
      await expect(page.getByRole('figure', { name: 'Устройства по часам, шт.' })).toBeVisible();
    });

    await test.step('a device’s day on the graph', async () => {
      await page.getByRole('button', { name: names.working }).click();
      await expect(page).toHaveURL(/[?&]device=\d+(&|$)/);
      const chart = page.getByRole('figure', { name: `${names.working}: ток, А` });
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(page.getByText('В этот день событий не было.')).toBeVisible();
      await page.getByRole('button', { name: 'Ко всем устройствам' }).click();
      await expect(page.getByRole('figure', { name: 'Устройства по часам, шт.' })).toBeVisible();
    });

    await test.step('axe finds nothing on the dashboard', async () => {
      await expectNoAxeViolations(page);
    });

    await test.step('the counters follow a sample without a reload (SSE)', async () => {
      await sendSamples(request, silentCredential, {
        ts: Date.now(),
        current: 1.2,
        temperature: 40,
        door_open: false,
        state: 'idle',
      });
      await expect(counter(page, 'online')).toHaveText(/^В сети\s*2$/, { timeout: 15_000 });
      await expect(counter(page, 'offline')).toHaveText(/^Не в сети\s*1$/);
    });

    await test.step('a counter leads to the devices list filtered by it', async () => {
      await counter(page, 'offline').click();
      await expect(page).toHaveURL(urlWithPath('/account/devices', '?counter=offline'));
      await expect(page.getByRole('heading', { level: 1, name: 'Оборудование' })).toBeVisible();
      const table = page.getByRole('table', { name: 'Оборудование' });
      await expect(table).toHaveAttribute('aria-rowcount', '2');
      await expect(table.getByRole('row').nth(1)).toContainText(names.fryer);
      await expect(page.getByText('Счётчик: Не в сети')).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Убрать фильтр «Не в сети»' }).click();
      await expect(page).toHaveURL(urlWithPath('/account/devices', ''));
      await expect(table).toHaveAttribute('aria-rowcount', '4');
    });

    await test.step('the device’s problems view says what the rules see, and axe finds nothing', async () => {
      await page.goto(`/account/devices/${silentId}?tab=problems`);
      await expect(page.getByRole('tab', { name: 'Проблемы', selected: true })).toBeVisible();
      const now = page.getByRole('region', { name: 'Проблемы сейчас' });
      await expect(now.getByRole('listitem')).toHaveCount(2);
      await expect(now.getByRole('listitem').nth(0)).toContainText(
        'Мойка просрочена — Ни разу не завершило мойку.',
      );
      await expect(now.getByRole('listitem').nth(1)).toContainText('Без нормы тока');
      await expect(
        page.getByRole('region', { name: 'События' }).getByText('Событий пока нет.'),
      ).toBeVisible();
      await expectNoAxeViolations(page);
    });

    await test.step('the device type filter narrows every widget, and the activity names the device', async () => {
      await postCreated(page, '/api/devices/events/add', {
        device_id: workingId,
        severity: 'warning',
        title: 'Осмотр печи',
      });
      await page.goto('/account/dashboard');
      const feed = page.getByRole('region', { name: 'Активность' });
      await expect(feed.getByText('Событие открыто: Осмотр печи')).toBeVisible();

      const fryerGraph = page.waitForRequest(
        (request) =>
          request.url().includes('/api/devices/info/prefer_graph') &&
          new URL(request.url()).searchParams.has('type'),
      );
      await page.getByRole('combobox', { name: 'Тип устройства' }).click();
      await page.getByRole('option', { name: 'Фритюрница', exact: true }).click();
      await expect(page).toHaveURL(/[?&]type=\d+(&|$)/);
      const type = new URL(page.url()).searchParams.get('type');
      expect(new URL((await fryerGraph).url()).searchParams.get('type')).toBe(type);
      await expect(counter(page, 'online')).toHaveText(/^В сети\s*0$/);
      await expect(counter(page, 'offline')).toHaveText(/^Не в сети\s*1$/);
      await expect(counter(page, 'issueReports')).toHaveText(/^Проблемы\s*0$/);
      await expect(counter(page, 'offline')).toHaveAttribute(
        'href',
        `/account/devices?counter=offline&type=${type}`,
      );
      await expect(page.getByRole('table', { name: 'Оборудование' })).toHaveAttribute('aria-rowcount', '2');
      const circles = page.getByRole('region', { name: 'Статусы устройств' });
      await expect(circles.getByText('Не в сети: 1')).toBeVisible();
      const problems = page.getByRole('table', { name: 'Проблемы' });
      await expect(problems.getByRole('link', { name: names.fryer })).toBeVisible();
      await expect(problems.getByRole('link', { name: names.working })).toHaveCount(0);
      await expect(page.getByRole('figure', { name: 'Устройства по часам, шт.' })).toBeVisible();
      // The oven's event is not the fryers' activity.
      await expect(feed.getByText('Пока ничего не произошло.')).toBeVisible();

      await page.getByRole('combobox', { name: 'Тип устройства' }).click();
      await page.getByRole('option', { name: 'Пароконвектомат', exact: true }).click();
      await expect(counter(page, 'online')).toHaveText(/^В сети\s*2$/);
      await expect(counter(page, 'issueReports')).toHaveText(/^Проблемы\s*1$/);
      await expect(feed.getByText('Событие открыто: Осмотр печи')).toBeVisible();
      await expect(feed.getByRole('link', { name: names.working })).toHaveAttribute(
        'href',
        `/account/devices/${workingId}?tab=problems`,
      );
      await expect(feed).not.toContainText('Устройство №');
      await expectNoAxeViolations(page);
    });
  });
});
