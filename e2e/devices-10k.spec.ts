import type { Page } from '@playwright/test';
import { runCli, seedFixtures, type Fixtures, type Login } from '../test-support/server.mjs';
import { databaseUrl, expect, signInWithApi, test } from './support/fixtures';

/**
 * Staying fast with 10 000 devices (docs/places-and-equipment.md): the devices list of
 * an organisation of this spec's own, seeded with 10 000 devices by the operator CLI, in a real
 * Chromium. The table renders only a window of rows, scrolls to the last device, and search, the
 * type filter, reload and reset all work on the whole fleet, with the state in the URL.
 *
 * The list is used by a technician holding the `devices` and `addresses` modules. The admin (all
 * modules) also loads the recipes and current-template lists, which this build answers with 404,
 * and that sets off the bug pinned by the last test: a query-string change then unmounts the page.
 */

const FLEET = 10_000;
/** A generous bound on the rows one screen of a virtualised table renders (plus 2 × 10 overscan). */
const WINDOW = 100;

/** Numbers as the console may print them: `10000`, or with a (narrow) no-break space, `10 000`. */
function count(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '[\\s\\u00a0\\u202f]?');
}

function shownOf(shown: number, total: number): RegExp {
  return new RegExp(`^Показано ${count(shown)} из ${count(total)}$`);
}

function devicesPage(page: Page) {
  return {
    table: page.getByRole('table', { name: 'Оборудование' }),
    scroller: page.getByRole('region', { name: 'Оборудование' }),
    rows: page.getByRole('table', { name: 'Оборудование' }).getByRole('row'),
    counter: page.getByRole('status').filter({ hasText: /^Показано / }),
    search: page.getByRole('searchbox', { name: 'Поиск' }),
    type: page.getByRole('combobox', { name: 'Тип', exact: true }),
    reset: page.getByRole('button', { name: 'Сбросить фильтры' }),
  };
}

test.describe('the devices list with 10 000 devices', () => {
  // Seeding and the first load of 10 000 devices on a loaded two-core machine.
  test.describe.configure({ timeout: 180_000 });

  const unique = `-fleet-${Date.now().toString(36)}-${process.pid}`;
  let org: Fixtures;
  let technician: Login;

  test.beforeAll(() => {
    test.setTimeout(180_000);
    const cli = (args: string[]) => runCli(args, { databaseUrl: databaseUrl() });
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
    const output = cli(['seed:fleet', '--org', String(org.organisationId), '--devices', String(FLEET)]);
    expect(output).toContain(`${FLEET} devices`);
    const modules = ['devices', 'addresses'];
    const role = /^Access role (\d+) created/m.exec(
      cli([
        'role:create',
        '--org',
        String(org.organisationId),
        '--name',
        'Техник',
        '--modules',
        modules.join(','),
      ]),
    )?.[1];
    if (!role) throw new Error('role:create printed no id');
    technician = {
      email: `technician${unique}@e2e.kontrol.test`,
      password: org.admin.password,
      name: 'Тимур Техников',
      modules,
    };
    cli([
      'user:create',
      '--org',
      String(org.organisationId),
      '--email',
      technician.email,
      '--name',
      technician.name,
      '--acl-role',
      role,
      '--password',
      technician.password,
    ]);
  });

  test('virtualised, scrollable, searchable and filterable, with its state in the URL', async ({ page }) => {
    await signInWithApi(page, technician);

    // What to look for, asked of the API: a smart device's controller id, and how many combi ovens.
    const smart = await page.request.get(
      `/api/devices/?page=1&per_page=100&search=${encodeURIComponent(`kc-${org.organisationId}-`)}`,
    );
    expect(smart.status()).toBe(200);
    const smartPage = (await smart.json()) as { data: { controller_id: string; name: string }[] };
    const target = smartPage.data[Math.floor(smartPage.data.length / 2)];
    if (!target) throw new Error('the fleet has no smart device');
    const types = (await (await page.request.get('/api/devices/types/')).json()) as {
      data: { data: { id: number; slug: string; name: string }[] };
    };
    const combi = types.data.data.find((type) => type.slug === 'combi_oven');
    if (!combi) throw new Error('no combi_oven device type');
    expect(combi.name).toBe('Пароконвектомат');
    const ofType = await page.request.get(
      `/api/devices/?page=1&per_page=1&filters[type_id][operator]=%3D&filters[type_id][value]=${combi.id}`,
    );
    expect(ofType.status()).toBe(200);
    const combiCount = ((await ofType.json()) as { meta: { total: number } }).meta.total;
    expect(combiCount).toBeGreaterThan(0);
    expect(combiCount).toBeLessThan(FLEET);

    const list = devicesPage(page);
    await test.step('the whole fleet is listed, a window of it rendered', async () => {
      await page.goto('/account/devices');
      await expect(page.getByRole('heading', { level: 1, name: 'Оборудование' })).toBeVisible();
      await expect(list.table).toHaveAttribute('aria-rowcount', String(FLEET + 1), { timeout: 60_000 });
      await expect(list.counter).toHaveText(shownOf(FLEET, FLEET));
      await expect(list.rows.first()).toHaveAttribute('aria-rowindex', '1');
      await expect(list.rows.nth(1)).toHaveAttribute('aria-rowindex', '2');
      const rendered = await list.rows.count();
      expect(rendered, 'rows in the DOM').toBeGreaterThan(5);
      expect(rendered, 'rows in the DOM').toBeLessThan(WINDOW);
    });

    let lastName = '';
    await test.step('scrolling to the bottom shows the last devices', async () => {
      await list.scroller.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      const last = list.rows.last();
      await expect(last).toHaveAttribute('aria-rowindex', String(FLEET + 1));
      // Drawn at the bottom of the table's scroll area, not clipped by it…
      const row = await last.boundingBox();
      const area = await list.scroller.boundingBox();
      if (!row || !area) throw new Error('the last row or the scroll area has no box');
      expect(row.y).toBeGreaterThanOrEqual(area.y);
      expect(row.y + row.height).toBeLessThanOrEqual(area.y + area.height + 1);
      // …and on screen once the page (whose chrome is taller than the table allows for) follows.
      await last.scrollIntoViewIfNeeded();
      await expect(last).toBeInViewport();
      lastName = (await last.getByRole('link').textContent()) ?? '';
      expect(lastName).not.toBe('');
      expect(await list.rows.count(), 'rows in the DOM at the bottom').toBeLessThan(WINDOW);
      // The first devices are no longer rendered: the first row after the header is far down.
      await expect(list.rows.nth(1)).not.toHaveAttribute('aria-rowindex', '2');
    });

    await test.step('sorting by name descending puts the last device first', async () => {
      await list.table.getByRole('button', { name: 'Название' }).click();
      await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
      await expect(list.table.getByRole('columnheader', { name: 'Название' })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
      await list.scroller.evaluate((element) => {
        element.scrollTop = 0;
      });
      await expect(list.rows.nth(1)).toHaveAttribute('aria-rowindex', '2');
      await expect(list.rows.nth(1).getByRole('link')).toHaveText(lastName);
      await list.table.getByRole('button', { name: 'Название' }).click();
      await expect(page).not.toHaveURL(/[?&]sort=/);
    });

    await test.step('a controller id finds exactly its device; q lands in the URL', async () => {
      await list.search.fill(target.controller_id);
      await expect(list.counter).toHaveText(shownOf(1, FLEET));
      await expect(list.table).toHaveAttribute('aria-rowcount', '2');
      await expect(list.rows).toHaveCount(2);
      await expect(list.rows.nth(1).getByRole('link')).toHaveText(target.name);
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(target.controller_id)}(&|$)`));
    });

    await test.step('a reload keeps the search', async () => {
      await page.reload();
      await expect(list.search).toHaveValue(target.controller_id);
      await expect(list.counter).toHaveText(shownOf(1, FLEET), { timeout: 60_000 });
      await expect(list.rows).toHaveCount(2);
    });

    await test.step('«Сбросить фильтры» brings every device back', async () => {
      await list.reset.click();
      await expect(list.search).toHaveValue('');
      await expect(list.counter).toHaveText(shownOf(FLEET, FLEET));
      await expect(list.table).toHaveAttribute('aria-rowcount', String(FLEET + 1));
      await expect(page).not.toHaveURL(/[?&]q=/);
      await expect(list.reset).toBeHidden();
    });

    await test.step('the type filter narrows the list to that type', async () => {
      await list.type.click();
      await page.getByRole('option', { name: 'Пароконвектомат', exact: true }).click();
      await expect(list.type).toHaveValue('Пароконвектомат');
      await expect(page).toHaveURL(new RegExp(`[?&]type=${combi.id}(&|$)`));
      await expect(list.counter).toHaveText(shownOf(combiCount, FLEET));
      await expect(list.table).toHaveAttribute('aria-rowcount', String(combiCount + 1));
      // Every rendered row is a combi oven (the type column).
      const body = list.rows.filter({ has: page.getByRole('cell') });
      const rendered = await body.count();
      expect(rendered).toBeLessThan(WINDOW);
      for (let index = 0; index < rendered; index += 1) {
        await expect(body.nth(index).getByRole('cell').nth(1)).toHaveText('Пароконвектомат');
      }
      await list.reset.click();
      await expect(list.counter).toHaveText(shownOf(FLEET, FLEET));
      await expect(page).not.toHaveURL(/[?&]type=/);
    });

    await test.step('a search without a match says «Записей не найдено»', async () => {
      await list.search.fill('нет-такого-устройства');
      await expect(list.counter).toHaveText(shownOf(0, FLEET));
      await expect(page.getByText('Записей не найдено', { exact: true })).toBeVisible();
      await expect(list.table).toHaveCount(0);
      await expect(page).toHaveURL(/[?&]q=/);
    });
  });

  // The admin holds modules whose lists this build cannot load yet (404): a query-string change
  // re-runs the account loader, and reloading those lists must not take the page away (and with it
  // the search box's focus and the user's typing).
  test('as the admin, the search box keeps its focus and text across a pause in typing', async ({ page }) => {
    await signInWithApi(page, org.admin);
    const list = devicesPage(page);
    await page.goto('/account/devices');
    await expect(list.table).toHaveAttribute('aria-rowcount', String(FLEET + 1), { timeout: 60_000 });

    const wanted = `SN-${org.organisationId}-004242`;
    await list.search.click();
    await page.keyboard.type(wanted.slice(0, 3), { delay: 50 });
    // The pause: the box writes `q` to the URL.
    await expect(page).toHaveURL(/[?&]q=SN-(&|$)/);
    // The user goes on typing, as fast as a person does.
    await page.keyboard.type(wanted.slice(3), { delay: 50 });
    await expect(list.search).toBeFocused();
    await expect(list.search).toHaveValue(wanted);
    await expect(list.counter).toHaveText(shownOf(1, FLEET));
  });
});
