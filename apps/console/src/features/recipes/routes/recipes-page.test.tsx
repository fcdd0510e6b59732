import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { buildRecipe, buildRecipeSet, choose, renderRecipes } from '../test/fixtures';

afterEach(() => queryClient.clear());

const lunch = buildRecipeSet({ id: 4, name: 'Обеды', recipe_ids: [1, 2] });
const breakfast = buildRecipeSet({ id: 5, name: 'Завтраки', recipe_ids: [2] });
const fries = buildRecipeSet({ id: 6, name: 'Фритюр', device_type_id: 2, recipe_ids: [3] });
const chicken = buildRecipe({ id: 1, name: 'Курица гриль', category: 'Птица', set_ids: [4] });
const omelette = buildRecipe({
  id: 2,
  name: 'Омлет',
  category: 'Завтрак',
  description: 'На пару, в гастроёмкости',
  image_url: '/api/recipes/2/image?v=1',
  set_ids: [4, 5],
  steps: [
    {
      mode: 'steam',
      temperature: 100,
      humidity: null,
      fan_speed: 2,
      duration_seconds: 1200,
      core_temperature: null,
      prompt: null,
    },
    {
      mode: 'convection',
      temperature: 160,
      humidity: null,
      fan_speed: 2,
      duration_seconds: null,
      core_temperature: 72,
      prompt: null,
    },
  ],
  duration_seconds: 1200,
});
const potatoes = buildRecipe({
  id: 3,
  name: 'Картофель фри',
  device_type_id: 2,
  category: null,
  set_ids: [6],
  steps: [
    {
      mode: 'fry',
      temperature: 175,
      humidity: null,
      fan_speed: null,
      duration_seconds: 240,
      core_temperature: null,
      prompt: null,
    },
  ],
  duration_seconds: 240,
});
const references = { recipes: [chicken, omelette, potatoes], sets: [lunch, breakfast, fries] };

const cards = () =>
  within(screen.getByRole('list', { name: 'Рецепты' }))
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent);

describe('the recipes list', { timeout: 30_000 }, () => {
  it('shows every recipe as a card, filtered by type, set and search in the URL, and says when none is left', async () => {
    const user = userEvent.setup();
    const { router } = await renderRecipes('/account/recipes', references);
    expect(await screen.findByRole('tab', { name: 'Рецепты', selected: true })).toBeInTheDocument();
    expect(cards()).toEqual(['Картофель фри', 'Курица гриль', 'Омлет']);
    expect(screen.getByText('Показано 3 из 3')).toBeInTheDocument();

    const omeletteCard = screen.getByRole('heading', { name: 'Омлет' }).closest('li') as HTMLElement;
    expect(within(omeletteCard).getByRole('link', { name: 'Омлет' })).toHaveAttribute(
      'href',
      '/account/recipes/2',
    );
    expect(omeletteCard).toHaveTextContent('Пароконвектомат · Завтрак');
    expect(omeletteCard).toHaveTextContent('Время: 20 мин и шаги по щупу · Шагов: 2');
    expect(
      within(omeletteCard)
        .getAllByRole('listitem')
        .map((badge) => badge.textContent),
    ).toEqual(['Обеды', 'Завтраки']);
    expect(omeletteCard.querySelector('img')).toHaveAttribute('src', '/api/recipes/2/image?v=1');
    const chickenCard = screen.getByRole('heading', { name: 'Курица гриль' }).closest('li') as HTMLElement;
    expect(chickenCard).toHaveTextContent('Нет изображения');
    expect(chickenCard).toHaveTextContent('Время: 25 мин · Шагов: 2');

    // By type: only the fryer's. The refrigerator takes no recipes and is not offered.
    await user.click(screen.getByRole('combobox', { name: 'Тип устройства' }));
    expect(screen.queryByRole('option', { name: 'Холодильный шкаф' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Фритюрница' }));
    await waitFor(() => expect(cards()).toEqual(['Картофель фри']));
    expect(router.state.location.search).toBe('?type=2');
    // The sets offered are the fryer's.
    await user.click(screen.getByRole('combobox', { name: 'Набор рецептов' }));
    expect(screen.queryByRole('option', { name: 'Обеды' })).toBeNull();
    await user.keyboard('{Escape}');

    // By set, on the oven: breakfasts hold the omelette only.
    await choose(screen.getByRole('combobox', { name: 'Тип устройства' }), 'Пароконвектомат');
    await waitFor(() => expect(cards()).toEqual(['Курица гриль', 'Омлет']));
    await choose(screen.getByRole('combobox', { name: 'Набор рецептов' }), 'Завтраки');
    await waitFor(() => expect(cards()).toEqual(['Омлет']));
    expect(new URLSearchParams(router.state.location.search).get('set')).toBe('5');

    // Search in the description too; then a search nothing matches.
    await choose(screen.getByRole('combobox', { name: 'Набор рецептов' }), 'Обеды');
    const search = screen.getByRole('searchbox', { name: 'Поиск рецептов' });
    await user.type(search, 'гастроёмк');
    await waitFor(() => expect(cards()).toEqual(['Омлет']));
    await user.clear(search);
    await user.type(search, 'суп');
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Рецепты' })).toBeNull();
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q')).toBe('суп'));
  });

  it('duplicates a recipe and reloads the lists', async () => {
    const user = userEvent.setup();
    const copy = buildRecipe({ id: 9, name: 'Курица гриль (копия)' });
    const copied: string[] = [];
    const reloads = { recipes: 0, sets: 0 };
    server.use(
      http.post('/api/recipes/:id/duplicate', ({ params }) => {
        copied.push(String(params.id));
        return HttpResponse.json({ data: copy }, { status: 201 });
      }),
      http.get('/api/recipes/', () => {
        reloads.recipes += 1;
        return HttpResponse.json({ data: [chicken, copy, omelette, potatoes] });
      }),
      http.get('/api/recipes_sets/', () => {
        reloads.sets += 1;
        return HttpResponse.json({ data: references.sets });
      }),
    );
    await renderRecipes('/account/recipes', references);
    await user.click(await screen.findByRole('button', { name: 'Копировать «Курица гриль»' }));
    const notice = await screen.findByText('Создана копия:');
    expect(within(notice.closest('[role="status"]') as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/account/recipes/9',
    );
    expect(copied).toEqual(['1']);
    await waitFor(() => expect(cards()).toContain('Курица гриль (копия)'));
    expect(reloads).toEqual({ recipes: 1, sets: 1 });
  });

  it('deletes a recipe only after confirmation, and shows why the server refused one on devices', async () => {
    const user = userEvent.setup();
    const deleted: string[] = [];
    let reloads = 0;
    server.use(
      http.delete('/api/recipes/:id', ({ params }) => {
        deleted.push(String(params.id));
        if (params.id === '2') {
          return HttpResponse.json(
            {
              message: 'Рецепт установлен на устройствах.',
              errors: { recipe: ['Рецепт установлен на 2 устройствах: сначала удалите его с них.'] },
            },
            { status: 422 },
          );
        }
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/recipes/', () => {
        reloads += 1;
        return HttpResponse.json({ data: [omelette, potatoes] });
      }),
      http.get('/api/recipes_sets/', () => HttpResponse.json({ data: references.sets })),
    );
    await renderRecipes('/account/recipes', references);

    await user.click(await screen.findByRole('button', { name: 'Удалить рецепт «Омлет»' }));
    let dialog = await screen.findByRole('dialog', { name: 'Удалить рецепт «Омлет»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Удалить рецепт «Омлет»' }));
    dialog = await screen.findByRole('dialog', { name: 'Удалить рецепт «Омлет»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Рецепт установлен на 2 устройствах: сначала удалите его с них.',
    );
    expect(deleted).toEqual(['2']);
    expect(reloads).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));

    await user.click(screen.getByRole('button', { name: 'Удалить рецепт «Курица гриль»' }));
    dialog = await screen.findByRole('dialog', { name: 'Удалить рецепт «Курица гриль»?' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual(['2', '1']);
    await waitFor(() => expect(cards()).toEqual(['Картофель фри', 'Омлет']));
    expect(reloads).toBe(1);
  });

  it('lists the sets in its second view, with their type and how many recipes they hold', async () => {
    const user = userEvent.setup();
    const { router } = await renderRecipes('/account/recipes', references);
    await user.click(await screen.findByRole('tab', { name: 'Наборы рецептов' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=sets'));
    const table = await screen.findByRole('table', { name: 'Наборы рецептов' });
    expect(within(table).getByRole('link', { name: 'Обеды' })).toHaveAttribute(
      'href',
      '/account/recipes/sets/4',
    );
    expect(within(table).getByRole('row', { name: /Фритюр Фритюрница 1/ })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Поиск наборов' }), 'завт');
    await waitFor(() => expect(within(table).queryByRole('link', { name: 'Обеды' })).toBeNull());
    expect(within(table).getByRole('link', { name: 'Завтраки' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Добавить набор' })).toHaveAttribute(
      'href',
      '/account/recipes/sets/add',
    );
  });
});
