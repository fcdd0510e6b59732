import type { RecipeBind } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { buildRecipe, buildRecipeBind, buildRecipeSet } from '../../test/entities';
import { buildAuthUser, server } from '../../test/server';
import { UPLOAD_POLL_MS } from '../../features/recipes/api/get-upload-status';
import { referenceKey } from '../../lib/reference-data/resources';
import {
  buildDevice,
  buildDeviceType,
  renderEquipment,
  withinLimits,
} from '../../features/devices/test/fixtures';
import { DevicePage } from './device-page';

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

const combi = buildDeviceType({ id: 1, slug: 'combi_oven', name: 'Пароконвектомат', program_capacity: 100 });
const fridge = buildDeviceType({
  id: 3,
  slug: 'refrigerator',
  name: 'Холодильный шкаф',
  program_capacity: null,
});
const oven = buildDevice({ id: 5, name: 'Печь 1', controller_id: 'oven-1', has_credential: true });
const cold = buildDevice({ id: 6, name: 'Холодильник 1', type_id: 3, controller_id: 'fridge-1' });
const chicken = buildRecipe({ id: 1, name: 'Курица гриль', version: 3 });
const omelette = buildRecipe({ id: 2, name: 'Омлет' });
const soup = buildRecipe({ id: 3, name: 'Суп' });
const lunch = buildRecipeSet({ id: 4, name: 'Обеды', recipe_ids: [1, 2] });
const dinner = buildRecipeSet({ id: 6, name: 'Ужины', recipe_ids: [3] });

/** Opens a device page with the recipes and sets loaded as the account frame leaves them. */
async function openDevice(url: string, modules = buildAuthUser(['devices', 'recipes'])) {
  queryClient.setQueryData(referenceKey('recipes'), [chicken, omelette, soup]);
  queryClient.setQueryData(referenceKey('recipesSets'), [lunch, dinner]);
  return renderEquipment(url, { devices: [oven, cold], types: [combi, fridge] }, modules, DevicePage);
}

function statusOf(binds: RecipeBind[]) {
  return HttpResponse.json({ data: { device_id: 5, counts: {}, binds, set_id: 4 } });
}

describe('the device page’s recipes view', { timeout: 60_000 }, () => {
  it('is there only for types that take recipes, and only for holders of the recipes module', async () => {
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/6', () => HttpResponse.json({ data: cold })),
      http.get('/api/devices/info/last_online', () => HttpResponse.json({ data: { intervals: [] } })),
      withinLimits,
    );
    const first = await openDevice('/account/devices/6');
    await screen.findByRole('tab', { name: 'Подключение' });
    expect(screen.queryByRole('tab', { name: 'Рецепты' })).toBeNull();
    first.unmount();
    queryClient.clear();

    const second = await openDevice('/account/devices/5?tab=recipes', buildAuthUser(['devices']));
    // Without the module the view is not offered, and its address shows the first view.
    expect(await screen.findByRole('tab', { name: 'Подключение', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Рецепты' })).toBeNull();
    second.unmount();
    queryClient.clear();

    server.use(http.get('/api/devices/5/get_upload_status', () => statusOf([])));
    await openDevice('/account/devices/5?tab=recipes');
    expect(await screen.findByRole('tab', { name: 'Рецепты', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
  });

  it('shows the set and each recipe’s version and state live, replaces the set, removes, downloads, retries and sends single recipes', async () => {
    const user = userEvent.setup();
    const calls: { what: string; body?: unknown }[] = [];
    const installedChicken = buildRecipeBind({ id: 41, recipe_id: 1, set_id: 4, version: 2, outdated: true });
    const failedSoup = buildRecipeBind({
      id: 43,
      recipe_id: 3,
      set_id: null,
      state: 'failed',
      error: 'timeout',
      reported_crc: null,
    });
    let asked = 0;
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/5/get_upload_status', () => {
        asked += 1;
        const omeletteBind = buildRecipeBind({
          id: 42,
          recipe_id: 2,
          set_id: 4,
          state: asked === 1 ? 'sending' : 'installed',
        });
        return statusOf([installedChicken, omeletteBind, failedSoup]);
      }),
      http.post('/api/devices/:id/recipe_set/:setId', ({ params }) => {
        calls.push({ what: `recipe_set ${String(params.id)}/${String(params.setId)}` });
        return HttpResponse.json({ data: null });
      }),
      http.delete('/api/recipes_sets_2/delete_recipes', async ({ request }) => {
        calls.push({ what: 'delete_recipes', body: await request.json() });
        return new HttpResponse(null, { status: 204 });
      }),
      http.post('/api/recipes_sets/upload_recipes', async ({ request }) => {
        calls.push({ what: 'upload_recipes', body: await request.json() });
        return HttpResponse.json({ data: null });
      }),
      http.post('/api/recipes_sets/get_program_files', async ({ request }) => {
        calls.push({ what: 'get_program_files', body: await request.json() });
        return new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
          headers: {
            'Content-Type': 'application/zip',
            'Content-Disposition': 'attachment; filename="programs-oven-1.zip"',
          },
        });
      }),
    );
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:programs');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });

    await openDevice('/account/devices/5?tab=recipes');
    const table = await screen.findByRole('table', { name: 'Рецепты на устройстве' });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    expect(screen.getByRole('region', { name: 'Набор рецептов' })).toHaveTextContent(
      'На устройстве набор Обеды.',
    );
    await waitFor(() => expect(row('Курица гриль')).toHaveTextContent('v2Устарел: есть v3'));
    expect(row('Курица гриль')).toHaveTextContent('Курица грильОбедыv2Устарел: есть v3Установлен');
    expect(row('Суп')).toHaveTextContent('Отдельно');
    expect(row('Суп')).toHaveTextContent('ОшибкаИстекло время: устройство не ответило вовремя.');
    expect(row('Омлет')).toHaveTextContent('Отправляется');
    expect(
      screen.getByText(/Установлено: 1, в процессе: 1, с ошибкой: 1\. Программ: 3 из 100\./),
    ).toBeInTheDocument();
    // Asked again while the omelette is on its way; then it is installed and the asking stops.
    await waitFor(() => expect(row('Омлет')).toHaveTextContent('Установлен'), {
      timeout: UPLOAD_POLL_MS + 3_000,
    });
    const settled = asked;
    expect(settled).toBe(2);

    // Replace the set.
    await user.click(screen.getByRole('combobox', { name: 'Заменить на набор' }));
    expect(screen.queryByRole('option', { name: 'Обеды' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Ужины' }));
    await user.click(screen.getByRole('button', { name: 'Заменить набор' }));
    await waitFor(() => expect(calls.map((call) => call.what)).toContain('recipe_set 5/6'));

    // Choose two, download their program files, then remove them after confirmation.
    await user.click(within(table).getByRole('checkbox', { name: 'Выбрать «Курица гриль»' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Выбрать «Суп»' }));
    await user.click(screen.getByRole('button', { name: 'Скачать файлы программ' }));
    await waitFor(() => expect(saved).toEqual(['programs-oven-1.zip']));
    expect(calls.find((call) => call.what === 'get_program_files')?.body).toEqual({ bind_ids: [41, 43] });

    await user.click(screen.getByRole('button', { name: 'Удалить с устройства' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить выбранные рецепты с «Печь 1»?' });
    expect(dialog).toHaveTextContent('Выбрано рецептов: 2.');
    await user.click(within(dialog).getByRole('button', { name: 'Убрать' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.what === 'delete_recipes')?.body).toEqual({ bind_ids: [41, 43] });

    // The failed single recipe is sent again as a single recipe.
    await user.click(screen.getByRole('button', { name: 'Повторить неудавшиеся' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.what === 'upload_recipes').map((call) => call.body)).toEqual([
        { recipe_ids: [3], device_id: 5 },
      ]),
    );

    // Single recipes of the device's type, sent on their own.
    await user.click(screen.getByRole('combobox', { name: 'Рецепты для отправки' }));
    await user.click(await screen.findByRole('option', { name: 'Омлет' }));
    await user.click(screen.getByRole('option', { name: 'Курица гриль' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.what === 'upload_recipes').map((call) => call.body)).toEqual([
        { recipe_ids: [3], device_id: 5 },
        { recipe_ids: [2, 1], device_id: 5 },
      ]),
    );
    // Every change asked for the device's delivery again.
    expect(asked).toBeGreaterThan(settled);
  });

  it('says when the set changed after it was installed and synchronises it; an empty set is installed only after a confirmation', async () => {
    const user = userEvent.setup();
    const calls: { what: string; body?: unknown }[] = [];
    // «Обеды» was installed with the chicken and the omelette; since then the omelette left it
    // and the soup joined it.
    const edited = { ...lunch, recipe_ids: [1, 3] };
    const empty = buildRecipeSet({ id: 7, name: 'Пустой', recipe_ids: [] });
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/5/get_upload_status', () =>
        statusOf([
          buildRecipeBind({ id: 41, recipe_id: 1, set_id: 4 }),
          buildRecipeBind({ id: 42, recipe_id: 2, set_id: 4 }),
        ]),
      ),
      http.post('/api/recipes_sets/upload', async ({ request }) => {
        calls.push({ what: 'upload', body: await request.json() });
        return HttpResponse.json({ data: null });
      }),
      http.post('/api/devices/:id/recipe_set/:setId', ({ params }) => {
        calls.push({ what: `recipe_set ${String(params.id)}/${String(params.setId)}` });
        return HttpResponse.json({ data: null });
      }),
    );
    queryClient.setQueryData(referenceKey('recipes'), [chicken, omelette, soup]);
    queryClient.setQueryData(referenceKey('recipesSets'), [edited, dinner, empty]);
    await renderEquipment(
      '/account/devices/5?tab=recipes',
      { devices: [oven, cold], types: [combi, fridge] },
      buildAuthUser(['devices', 'recipes']),
      DevicePage,
    );

    const changed = await screen.findByRole('alert');
    expect(changed).toHaveTextContent('Набор изменился после установки');
    expect(changed).toHaveTextContent('Рецептов набора нет на устройстве: 1.');
    expect(changed).toHaveTextContent('На устройстве рецептов, которых больше нет в наборе: 1.');
    await user.click(within(changed).getByRole('button', { name: 'Синхронизировать' }));
    await waitFor(() => expect(calls).toEqual([{ what: 'upload', body: { device_id: 5, set_id: 4 } }]));

    // An empty set: asked first; cancelled, nothing is sent.
    await user.click(screen.getByRole('combobox', { name: 'Заменить на набор' }));
    await user.click(await screen.findByRole('option', { name: 'Пустой' }));
    await user.click(screen.getByRole('button', { name: 'Заменить набор' }));
    let dialog = await screen.findByRole('dialog', { name: 'Установить пустой набор «Пустой»?' });
    expect(dialog).toHaveTextContent('рецепты набора, который сейчас на устройстве, будут с него удалены');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Заменить набор' }));
    dialog = await screen.findByRole('dialog', { name: 'Установить пустой набор «Пустой»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Установить набор' }));
    await waitFor(() => expect(calls.map((call) => call.what)).toContain('recipe_set 5/7'));
  });

  it('says nothing of a change while the device holds its set as it is', async () => {
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/5/get_upload_status', () =>
        statusOf([
          buildRecipeBind({ id: 41, recipe_id: 1, set_id: 4 }),
          buildRecipeBind({ id: 42, recipe_id: 2, set_id: 4, state: 'queued' }),
        ]),
      ),
    );
    await openDevice('/account/devices/5?tab=recipes');
    expect(await screen.findByRole('table', { name: 'Рецепты на устройстве' })).toBeInTheDocument();
    expect(screen.queryByText('Набор изменился после установки')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Синхронизировать' })).toBeNull();
  });
});
