import type { DeviceGroup, RecipeBind, RecipeSetBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { passPolls, fakePollTimers } from '../../../test/poll-timers';
import { server } from '../../../test/server';
import { UPLOAD_POLL_MS } from '../api/get-upload-status';
import {
  buildDevice,
  buildRecipe,
  buildRecipeBind,
  buildRecipeSet,
  choose,
  renderRecipes,
} from '../test/fixtures';

// The deliveries' polling runs on timers this file moves on.
fakePollTimers();
afterEach(() => queryClient.clear());

const chicken = buildRecipe({ id: 1, name: 'Курица гриль' });
const omelette = buildRecipe({ id: 2, name: 'Омлет' });
const soup = buildRecipe({ id: 3, name: 'Суп' });
const potatoes = buildRecipe({ id: 4, name: 'Картофель фри', device_type_id: 2 });
const lunch = buildRecipeSet({ id: 4, name: 'Обеды', recipe_ids: [1, 2] });
const ovenA = buildDevice({ id: 11, name: 'Печь A', controller_id: 'oven-a' });
const ovenB = buildDevice({ id: 12, name: 'Печь B', controller_id: 'oven-b' });
/** An oven without a controller (watched by a current template only): it cannot take programs. */
const ovenC = buildDevice({ id: 13, name: 'Печь C', template_id: 1 });
const fryer = buildDevice({ id: 14, name: 'Фритюр 1', type_id: 2, controller_id: 'fryer-1' });
const references = {
  recipes: [chicken, omelette, soup, potatoes],
  sets: [lunch],
  devices: [ovenA, ovenB, ovenC, fryer],
};

/** The set's two recipes on a device, in the given states. */
function binds(
  device: number,
  states: [RecipeBind['state'], RecipeBind['state']],
  errors: [RecipeBind['error'], RecipeBind['error']] = [null, null],
): RecipeBind[] {
  return [1, 2].map((recipe, index) =>
    buildRecipeBind({
      id: device * 10 + recipe,
      device_id: device,
      recipe_id: recipe,
      set_id: 4,
      state: states[index] ?? 'queued',
      error: errors[index] ?? null,
    }),
  );
}

/** Answers GET get_upload_status of each device from its script (the last answer repeats) and counts. */
function serveStatus(scripts: Record<number, () => RecipeBind[]>) {
  const asked: Record<number, number> = {};
  server.use(
    http.get('/api/devices/:id/get_upload_status', ({ params }) => {
      const id = Number(params.id);
      asked[id] = (asked[id] ?? 0) + 1;
      const list = scripts[id]?.() ?? [];
      const counts: Record<string, number> = {};
      for (const bind of list) counts[bind.state] = (counts[bind.state] ?? 0) + 1;
      return HttpResponse.json({ data: { device_id: id, counts, binds: list, set_id: 4 } });
    }),
  );
  return asked;
}

/** A script: one answer per request, the last one kept. */
function sequence(...answers: RecipeBind[][]) {
  let next = 0;
  return () => answers[Math.min(next++, answers.length - 1)] ?? [];
}

const passUploadPolls = (polls = 1) => passPolls(UPLOAD_POLL_MS, polls);

describe('the recipe set page', { timeout: 60_000 }, () => {
  it('writes a set: its type’s recipes, put in order and removed, sent in that order', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let sent: unknown;
    const created = buildRecipeSet({ id: 8, name: 'Ужины', recipe_ids: [2, 1] });
    const reloads = { recipes: 0, sets: 0 };
    server.use(
      http.post('/api/recipes_sets/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.get('/api/recipes_sets/8', () => HttpResponse.json({ data: created })),
      http.get('/api/recipes/', () => {
        reloads.recipes += 1;
        return HttpResponse.json({ data: references.recipes });
      }),
      http.get('/api/recipes_sets/', () => {
        reloads.sets += 1;
        return HttpResponse.json({ data: [lunch, created] });
      }),
    );
    const { router } = await renderRecipes('/account/recipes/sets/add?type=1', references);

    await user.type(screen.getByRole('textbox', { name: /Название набора/ }), 'Ужины');
    expect(screen.getByRole('combobox', { name: /Тип устройства/ })).toHaveValue('Пароконвектомат');
    expect(screen.getByText('В наборе пока нет рецептов.')).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Рецепт для добавления' });
    // Only the oven's recipes are offered.
    await user.click(picker);
    expect(screen.queryByRole('option', { name: 'Картофель фри' })).toBeNull();
    await user.keyboard('{Escape}');
    for (const name of ['Курица гриль', 'Омлет', 'Суп']) {
      await choose(picker, name);
      await user.click(screen.getByRole('button', { name: 'Добавить в набор' }));
    }
    // A recipe in the set is not offered again.
    await user.click(picker);
    expect(screen.queryByRole('option', { name: 'Омлет' })).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Переместить выше: «Омлет»' }));
    await user.click(screen.getByRole('button', { name: 'Убрать «Суп» из набора' }));
    const list = screen.getByRole('list', { name: 'Рецепты набора' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('1. Омлет'), expect.stringContaining('2. Курица гриль')]);

    await user.click(screen.getByRole('button', { name: 'Добавить набор' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes/sets/8'));
    expect(sent).toEqual({
      name: 'Ужины',
      description: null,
      device_type_id: 1,
      recipe_ids: [2, 1],
    } satisfies RecipeSetBody);
    await waitFor(() => expect(reloads).toEqual({ recipes: 1, sets: 1 }));
  });

  it('deploys the set to chosen devices and follows each delivery until it ends: installed, a CRC mismatch retried', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const deployed: string[] = [];
    const retried: unknown[] = [];
    let retriedB = false;
    server.use(
      http.get('/api/recipes_sets/4', () => HttpResponse.json({ data: lunch })),
      http.post('/api/devices/:id/recipe_set/:setId', ({ params }) => {
        deployed.push(`${String(params.id)}/${String(params.setId)}`);
        return HttpResponse.json({ data: null });
      }),
      http.post('/api/recipes_sets/upload', async ({ request }) => {
        retried.push(await request.json());
        retriedB = true;
        return HttpResponse.json({ data: null });
      }),
    );
    const afterRetry = sequence(binds(12, ['installed', 'sending']), binds(12, ['installed', 'installed']));
    const asked = serveStatus({
      11: sequence(
        binds(11, ['queued', 'queued']),
        binds(11, ['sending', 'sending']),
        binds(11, ['installed', 'installed']),
      ),
      12: (() => {
        const before = sequence(
          binds(12, ['sending', 'sending']),
          binds(12, ['installed', 'failed'], [null, 'crc_mismatch']),
        );
        return () => (retriedB ? afterRetry() : before());
      })(),
    });
    await renderRecipes('/account/recipes/sets/4', references);

    await user.click(await screen.findByRole('button', { name: 'Установить на устройства' }));
    const dialog = await screen.findByRole('dialog', { name: 'Установка набора «Обеды»' });
    // The smart devices of the set's type that have a controller.
    await user.click(within(dialog).getByRole('combobox', { name: /Устройства/ }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Печь A', 'Печь B']);
    await user.click(screen.getByRole('option', { name: 'Печь A' }));
    await user.click(screen.getByRole('option', { name: 'Печь B' }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Установить на устройства: 2' }));

    const a = await within(dialog).findByRole('region', { name: 'Печь A' });
    const b = within(dialog).getByRole('region', { name: 'Печь B' });
    expect(deployed.sort()).toEqual(['11/4', '12/4']);
    // Offline for now: queued, said in words.
    await waitFor(() => expect(a).toHaveTextContent('Установлено: 0 из 2; идёт доставка…'));
    expect(within(a).getAllByText(/Ждёт устройство: оно получит файл, когда выйдет на связь\./)).toHaveLength(
      2,
    );

    // Both have answered once: each poll below moves both on by one answer.
    await waitFor(() => expect(b).toHaveTextContent('Установлено: 0 из 2; идёт доставка…'));

    // Every two seconds until both have ended.
    await passUploadPolls();
    await waitFor(() => expect(b).toHaveTextContent('Установлено: 1 из 2; с ошибкой: 1.'));
    await passUploadPolls();
    await waitFor(() => expect(a).toHaveTextContent('Установлены все (2).'));
    expect(asked).toEqual({ 11: 3, 12: 2 });
    expect(
      within(within(b).getByRole('list', { name: 'Рецепты на «Печь B»' })).getAllByRole('listitem')[1],
    ).toHaveTextContent(
      'ОшибкаОмлет — Несовпадение CRC: устройство сохранило другой файл. Повторите отправку.',
    );
    expect(within(a).queryByRole('button', { name: /Повторить/ })).toBeNull();

    // Nothing moves any more: no more questions.
    const settled = { ...asked };
    await passUploadPolls(3);
    expect(asked).toEqual(settled);

    // Retrying sends the set again to that device, and its delivery is followed again.
    await user.click(within(b).getByRole('button', { name: 'Повторить на «Печь B»' }));
    await waitFor(() => expect(retried).toEqual([{ device_id: 12, set_id: 4 }]));
    await waitFor(() => expect(b).toHaveTextContent('Установлено: 1 из 2; идёт доставка…'));
    await passUploadPolls();
    await waitFor(() => expect(b).toHaveTextContent('Установлены все (2).'));
    expect(asked[11]).toBe(settled[11]);
  });

  it('deploys to the devices of a group that can take the set, and stops asking once the dialog closes', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const deployed: string[] = [];
    const group: DeviceGroup = {
      id: 2,
      name: 'Кухня на Тверской',
      description: null,
      device_ids: [11, 13, 14],
      devices_count: 3,
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-01T09:00:00.000Z',
    };
    server.use(
      http.get('/api/recipes_sets/4', () => HttpResponse.json({ data: lunch })),
      http.get('/api/devices/client/groups', () =>
        HttpResponse.json({
          data: [group],
          links: { first: '', last: '', prev: null, next: null },
          meta: { current_page: 1, from: 1, last_page: 1, path: '', per_page: 25, to: 1, total: 1 },
        }),
      ),
      http.post('/api/devices/:id/recipe_set/:setId', ({ params }) => {
        deployed.push(`${String(params.id)}/${String(params.setId)}`);
        return HttpResponse.json({ data: null });
      }),
    );
    // The device stays offline: its programs wait in the queue.
    const asked = serveStatus({ 11: () => binds(11, ['queued', 'queued']) });
    await renderRecipes('/account/recipes/sets/4', references);

    await user.click(await screen.findByRole('button', { name: 'Установить на устройства' }));
    const dialog = await screen.findByRole('dialog', { name: 'Установка набора «Обеды»' });
    await user.click(within(dialog).getByRole('radio', { name: 'Группа устройств' }));
    await choose(within(dialog).getByRole('combobox', { name: 'Группа устройств' }), 'Кухня на Тверской');
    expect(
      within(dialog).getByText(/Набор могут принять устройства группы: 1 из 3\. Печь A\./),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Установить на устройства: 1' }));
    const a = await within(dialog).findByRole('region', { name: 'Печь A' });
    expect(deployed).toEqual(['11/4']);
    await waitFor(() => expect(a).toHaveTextContent('Установлено: 0 из 2; идёт доставка…'));
    expect(asked[11]).toBe(1);
    await passUploadPolls();
    expect(asked[11]).toBe(2);

    await user.click(within(dialog).getByRole('button', { name: 'Готово' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const closedAt = asked[11];
    await passUploadPolls(3);
    expect(asked[11]).toBe(closedAt);
  });
});
