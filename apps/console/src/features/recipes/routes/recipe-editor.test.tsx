import type { RecipeBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { installCanvas } from '../../../test/canvas';
import { server } from '../../../test/server';
import { buildRecipe, buildRecipeSet, choose, layOutSortableItems, renderRecipes } from '../test/fixtures';

afterEach(() => queryClient.clear());

const step = (name: RegExp | string) => screen.getByRole('group', { name });

describe('the recipe editor', { timeout: 60_000 }, () => {
  it('creates a recipe with its steps in the order the keyboard left them, its image and its set', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    const uploads: FormData[] = [];
    const reloads = { recipes: 0, sets: 0 };
    const created = buildRecipe({ id: 7, name: 'Курица с овощами' });
    server.use(
      http.post('/api/recipes/image', async ({ request }) => {
        uploads.push(await request.formData());
        return HttpResponse.json(
          { data: { image: `${'ab'.repeat(16)}.png`, url: '/api/recipes/image/abab.png' } },
          { status: 201 },
        );
      }),
      http.post('/api/recipes/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.get('/api/recipes/7', () => HttpResponse.json({ data: created })),
      http.get('/api/recipes/', () => {
        reloads.recipes += 1;
        return HttpResponse.json({ data: [created] });
      }),
      http.get('/api/recipes_sets/', () => {
        reloads.sets += 1;
        return HttpResponse.json({ data: [] });
      }),
    );
    const { router } = await renderRecipes('/account/recipes/add', {
      recipes: [buildRecipe({ id: 1, category: 'Птица' })],
      sets: [
        buildRecipeSet({ id: 4, name: 'Обеды', device_type_id: 1 }),
        buildRecipeSet({ id: 5, name: 'Фритюр', device_type_id: 2 }),
      ],
    });

    await user.type(screen.getByRole('textbox', { name: /Название рецепта/ }), 'Курица с овощами');
    // Only the types that take recipes are offered.
    await user.click(screen.getByRole('combobox', { name: /Тип устройства/ }));
    expect(screen.queryByRole('option', { name: 'Холодильный шкаф' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Пароконвектомат' }));
    await user.type(screen.getByRole('combobox', { name: /Категория/ }), 'Птица');

    // Step 1: convection at 200 °C for 15 minutes.
    const first = step('Шаг 1: Конвекция');
    const temperature = within(first).getByRole('textbox', { name: /Температура, °C/ });
    expect(temperature).toHaveAccessibleDescription('от 30 до 300 °C');
    await user.clear(temperature);
    await user.type(temperature, '200');
    const time = within(first).getByRole('textbox', { name: /Время, мин или мм:сс/ });
    await user.clear(time);
    await user.type(time, '15');
    // Convection has no humidity.
    expect(within(first).queryByRole('textbox', { name: /Влажность/ })).toBeNull();

    // Step 2 (a new step starts in the previous step's mode, at its usual 180 °C): combination,
    // 70 % humidity, 5 min 30 s.
    await user.click(screen.getByRole('button', { name: 'Добавить шаг' }));
    expect(within(step('Шаг 2: Конвекция')).getByRole('textbox', { name: /Температура, °C/ })).toHaveValue(
      '180',
    );
    await choose(
      within(step('Шаг 2: Конвекция')).getByRole('combobox', { name: 'Режим' }),
      'Комбинированный',
    );
    const second = step('Шаг 2: Комбинированный');
    expect(within(second).getByRole('textbox', { name: /Температура, °C/ })).toHaveAccessibleDescription(
      'от 30 до 250 °C',
    );
    const humidity = within(second).getByRole('textbox', { name: /Влажность, %/ });
    await user.clear(humidity);
    await user.type(humidity, '70');
    const secondTime = within(second).getByRole('textbox', { name: /Время, мин или мм:сс/ });
    await user.clear(secondTime);
    await user.type(secondTime, '5:30');

    // Step 3, combination as step 2: until the core probe reads 75 °C, with a prompt.
    await user.click(screen.getByRole('button', { name: 'Добавить шаг' }));
    const third = step('Шаг 3: Комбинированный');
    await user.click(within(third).getByRole('radio', { name: 'По температуре щупа' }));
    expect(within(third).queryByRole('textbox', { name: /Время, мин/ })).toBeNull();
    await user.type(within(third).getByRole('textbox', { name: /Температура щупа, °C/ }), '75');
    await user.type(within(third).getByRole('textbox', { name: /Подсказка повару/ }), 'Вставьте щуп');

    // The keyboard moves step 3 above step 2: Space picks it up, the arrow moves it, Space drops it.
    const restore = layOutSortableItems();
    try {
      within(third).getByRole('button', { name: 'Перетащить: шаг 3' }).focus();
      await user.keyboard('[Space]');
      await user.keyboard('[ArrowUp]');
      await user.keyboard('[Space]');
    } finally {
      restore();
    }
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Шаги' }))
          .getAllByRole('group')
          .map((group) => group.querySelector('legend')?.textContent),
      ).toEqual(['Шаг 1: Конвекция', 'Шаг 2: Комбинированный', 'Шаг 3: Комбинированный']),
    );
    // The moved step kept its values.
    expect(
      within(step('Шаг 2: Комбинированный')).getByRole('textbox', { name: /Температура щупа/ }),
    ).toHaveValue('75');

    // The image is sent at once and shown; the body names it.
    await user.upload(
      screen.getByLabelText('Выбрать изображение', { selector: 'input' }),
      new File([new Uint8Array(64)], 'chicken.png', { type: 'image/png' }),
    );
    expect(await screen.findByRole('img', { name: 'Изображение: Курица с овощами' })).toHaveAttribute(
      'src',
      '/api/recipes/image/abab.png',
    );
    expect(uploads).toHaveLength(1);

    // Only the oven's sets are offered.
    await user.click(screen.getByRole('combobox', { name: /Наборы рецептов/ }));
    expect(screen.queryByRole('option', { name: 'Фритюр' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Обеды' }));

    await user.click(screen.getByRole('button', { name: 'Добавить рецепт' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes/7'));
    expect(sent).toEqual({
      name: 'Курица с овощами',
      device_type_id: 1,
      category: 'Птица',
      description: null,
      image: `${'ab'.repeat(16)}.png`,
      steps: [
        {
          mode: 'convection',
          temperature: 200,
          humidity: null,
          fan_speed: 3,
          duration_seconds: 900,
          core_temperature: null,
          prompt: null,
        },
        {
          mode: 'combination',
          temperature: 160,
          humidity: 50,
          fan_speed: 3,
          duration_seconds: null,
          core_temperature: 75,
          prompt: 'Вставьте щуп',
        },
        {
          mode: 'combination',
          temperature: 180,
          humidity: 70,
          fan_speed: 3,
          duration_seconds: 330,
          core_temperature: null,
          prompt: null,
        },
      ],
      set_ids: [4],
    } satisfies RecipeBody);
    // docs/contract.md, "States and transitions": both lists are reloaded (the set now holds the recipe).
    await waitFor(() => expect(reloads).toEqual({ recipes: 1, sets: 1 }));
  });

  it('moves a step with the arrow buttons too, and sends nothing while a time does not read', async () => {
    const user = userEvent.setup();
    let posts = 0;
    server.use(
      http.post('/api/recipes/', () => {
        posts += 1;
        return HttpResponse.json({ message: 'Не ожидалось.' }, { status: 500 });
      }),
    );
    await renderRecipes('/account/recipes/add?type=2');
    // The fryer: one mode, no fan, no core probe.
    const first = step('Шаг 1: Жарка');
    expect(within(first).queryByRole('textbox', { name: /Скорость вентилятора/ })).toBeNull();
    expect(within(first).queryByRole('radio', { name: 'По температуре щупа' })).toBeNull();
    expect(within(first).getByRole('textbox', { name: /Температура, °C/ })).toHaveValue('175');

    await user.click(screen.getByRole('button', { name: 'Добавить шаг' }));
    const temperature = within(step('Шаг 2: Жарка')).getByRole('textbox', { name: /Температура, °C/ });
    await user.clear(temperature);
    await user.type(temperature, '160');
    await user.click(screen.getByRole('button', { name: 'Переместить выше: шаг 2' }));
    expect(within(step('Шаг 1: Жарка')).getByRole('textbox', { name: /Температура, °C/ })).toHaveValue('160');
    expect(screen.getByRole('button', { name: 'Переместить выше: шаг 1' })).toBeDisabled();

    await user.type(screen.getByRole('textbox', { name: /Название рецепта/ }), 'Картофель фри');
    const time = within(step('Шаг 2: Жарка')).getByRole('textbox', { name: /Время, мин или мм:сс/ });
    await user.clear(time);
    await user.type(time, '4 минуты');
    expect(time).toHaveAccessibleDescription(/Введите минуты \(15\) или минуты и секунды \(12:30\)\./);
    await user.click(screen.getByRole('button', { name: 'Добавить рецепт' }));
    expect(time).toHaveFocus();
    expect(posts).toBe(0);
  });

  it('puts the server’s field errors under the step fields and the others under "Please fix the following errors"', async () => {
    const user = userEvent.setup();
    const recipe = buildRecipe({ id: 3 });
    let sent: RecipeBody | undefined;
    server.use(
      http.get('/api/recipes/3', () => HttpResponse.json({ data: recipe })),
      http.put('/api/recipes/3', async ({ request }) => {
        sent = (await request.json()) as RecipeBody;
        return HttpResponse.json(
          {
            message: 'Проверьте поля.',
            errors: {
              'steps.1.temperature': ['Комбинированный режим: не выше 250 °C.'],
              'steps.0': ['Шаг должен закончиться по времени или по щупу.'],
              name: ['Рецепт с таким названием уже есть.'],
              version: ['Рецепт изменён другим пользователем.'],
            },
          },
          { status: 422 },
        );
      }),
    );
    await renderRecipes('/account/recipes/3', { recipes: [recipe] });

    const temperature = within(
      await screen.findByRole('group', { name: 'Шаг 2: Комбинированный' }),
    ).getByRole('textbox', { name: /Температура, °C/ });
    await user.clear(temperature);
    await user.type(temperature, '280');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(temperature).toHaveAccessibleDescription(/Комбинированный режим: не выше 250 °C\./);
    // The first step's own message is under its legend; the field of the other step is clean.
    expect(step('Шаг 1: Конвекция')).toHaveAccessibleDescription(
      'Шаг должен закончиться по времени или по щупу.',
    );
    expect(
      within(step('Шаг 1: Конвекция')).getByRole('textbox', { name: /Температура, °C/ }),
    ).not.toHaveAccessibleDescription(/250/);
    expect(screen.getByRole('textbox', { name: /Название рецепта/ })).toHaveAccessibleDescription(
      'Рецепт с таким названием уже есть.',
    );
    // A message of a field the form does not show is listed under the heading; the others are not.
    expect(alert).toHaveTextContent('Рецепт изменён другим пользователем.');
    expect(alert).not.toHaveTextContent('не выше 250');
    // The whole recipe is sent, the edited value as typed.
    expect(sent?.steps).toEqual([
      {
        mode: 'convection',
        temperature: 180,
        humidity: null,
        fan_speed: 3,
        duration_seconds: 600,
        core_temperature: null,
        prompt: null,
      },
      {
        mode: 'combination',
        temperature: 280,
        humidity: 60,
        fan_speed: 2,
        duration_seconds: 900,
        core_temperature: null,
        prompt: 'Переверните',
      },
    ]);
  });

  it('draws the planned temperature curve of the form as it stands, core-probe steps at an assumed length', async () => {
    const original: unknown = Reflect.get(HTMLCanvasElement.prototype, 'getContext');
    installCanvas();
    // The stand-in canvas draws nothing: record the rectangles filled, with their colour.
    const rects: { fill: string; x: number; width: number }[] = [];
    const standIn = Reflect.get(HTMLCanvasElement.prototype, 'getContext') as (
      this: HTMLCanvasElement,
      ...args: unknown[]
    ) => CanvasRenderingContext2D;
    Reflect.set(
      HTMLCanvasElement.prototype,
      'getContext',
      function getContext(this: HTMLCanvasElement, ...args: unknown[]) {
        const context = standIn.apply(this, args);
        context.fillRect = (x: number, _y: number, width: number) => {
          rects.push({ fill: typeof context.fillStyle === 'string' ? context.fillStyle : '', x, width });
        };
        return context;
      },
    );
    try {
      const user = userEvent.setup();
      const recipe = buildRecipe({
        id: 3,
        steps: [
          ...buildRecipe().steps,
          {
            mode: 'convection',
            temperature: 90,
            humidity: null,
            fan_speed: 1,
            duration_seconds: null,
            core_temperature: 72,
            prompt: null,
          },
        ],
      });
      server.use(http.get('/api/recipes/3', () => HttpResponse.json({ data: recipe })));
      await renderRecipes('/account/recipes/3', { recipes: [recipe] });

      const figure = await screen.findByRole('figure', { name: 'Плановая температура' });
      expect(
        within(figure)
          .getByRole('img', { name: 'График плановой температуры камеры за 55 мин' })
          .querySelector('canvas'),
      ).not.toBeNull();
      expect(figure).toHaveTextContent('Плановое время: 55 мин, из них 30 мин — условно для шагов по щупу.');
      const steps = within(figure).getByRole('list', { name: 'Кривая по шагам' });
      expect(
        within(steps)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        'Шаг 1, Конвекция: 180 °C с 0:00 до 10:00',
        'Шаг 2, Комбинированный: 160 °C с 10:00 до 25:00',
        'Шаг 3, Конвекция: 90 °C с 25:00 до 55:00 (условная длина)',
      ]);
      // The core-probe step is shaded: 30 of the 55 minutes.
      const shade = () => rects.filter((rect) => rect.fill === 'rgba(134, 142, 150, 0.25)').at(-1);
      await waitFor(() => expect(shade()?.width ?? 0).toBeGreaterThan(0));
      const before = shade()?.width ?? 0;

      // Ten more minutes for step 2: the curve and the words follow at once, unsaved.
      const time = within(step('Шаг 2: Комбинированный')).getByRole('textbox', { name: /Время, мин/ });
      await user.clear(time);
      await user.type(time, '25');
      expect(figure).toHaveTextContent('Плановое время: 1 ч 5 мин, из них 30 мин');
      expect(within(steps).getAllByRole('listitem')[2]).toHaveTextContent('с 35:00 до 65:00');
      // The same 30 minutes now take 30 of 65 minutes of the same plot.
      await waitFor(() => expect((shade()?.width ?? 0) / before).toBeCloseTo(55 / 65, 2));

      // A temperature changed shows in the words too.
      const temperature = within(step('Шаг 1: Конвекция')).getByRole('textbox', { name: /Температура, °C/ });
      await user.clear(temperature);
      await user.type(temperature, '220');
      expect(within(steps).getAllByRole('listitem')[0]).toHaveTextContent('Шаг 1, Конвекция: 220 °C');

      // Only valid values are drawn: 2000 °C is out of convection's range, 9999 minutes out of a step's.
      await user.clear(temperature);
      await user.type(temperature, '2000');
      expect(within(steps).getAllByRole('listitem')[0]).toHaveTextContent(
        'Шаг 1, Конвекция: — с 0:00 до 10:00',
      );
      await user.clear(time);
      await user.type(time, '9999');
      expect(within(steps).getAllByRole('listitem')[1]).toHaveTextContent('с 10:00 до 10:00');
      expect(figure).toHaveTextContent('Плановое время: 40 мин, из них 30 мин');
    } finally {
      Reflect.set(HTMLCanvasElement.prototype, 'getContext', original);
    }
  });
});
