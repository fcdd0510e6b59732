import type { Page } from '@playwright/test';
import { seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  databaseUrl,
  expect,
  expectNoAxeViolations,
  signInWithApi,
  test,
  createSmartOven,
  everyMinute,
  MINUTE,
  sendSamples,
} from './support/fixtures';

/**
 * Dark mode (docs/console-shell.md, "Contrast"): every control's text — a disabled one's and a
 * field's placeholder included, which axe leaves out — is at least 4.5:1 against what is behind it
 * (WCAG 2.1 AA), and axe finds nothing on the way. The telemetry page holds the disabled «Сбросить
 * масштаб» that was 2.47:1.
 */
test.use({ colorScheme: 'dark' });

interface LowContrast {
  control: string;
  ratio: number;
  color: string;
  background: string;
}

/** The visible controls (and placeholders) whose text is under 4.5:1 against their background. */
function lowContrastControls(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const parts =
        /rgba?\(([^)]+)\)/
          .exec(value)?.[1]
          ?.split(/[\s,/]+/)
          .filter(Boolean) ?? [];
      const [r = 0, g = 0, b = 0, a = '1'] = parts;
      return [Number(r), Number(g), Number(b), Number(a)];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => (top[i] ?? 0) * a + (bottom[i] ?? 0) * (1 - a)).concat(1) as Rgba;
    };
    /** What is painted behind `element`: its and its ancestors' backgrounds, blended. */
    const backgroundOf = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const layer = parse(getComputedStyle(node).backgroundColor);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] >= 1) break;
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: Rgba) => {
      const [lr, lg, lb] = [r, g, b].map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (lr ?? 0) + 0.7152 * (lg ?? 0) + 0.0722 * (lb ?? 0);
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return ((x ?? 0) + 0.05) / ((y ?? 0) + 0.05);
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()} «${(element.textContent || element.getAttribute('aria-label') || element.getAttribute('placeholder') || '').trim().slice(0, 40)}»`;
    const found: LowContrast[] = [];
    const check = (element: Element, color: string, what: string) => {
      const background = backgroundOf(element);
      const text = over(parse(color), background);
      const value = ratio(text, background);
      if (value < 4.5) {
        found.push({
          control: what,
          ratio: Math.round(value * 100) / 100,
          color,
          background: background.join(','),
        });
      }
    };
    for (const element of document.querySelectorAll(
      'button, a[href], [role="button"], [role="tab"], [role="radio"], label, input, textarea, select',
    )) {
      if (!shown(element) || (element.textContent ?? '').trim() === '') continue;
      check(element, getComputedStyle(element).color, describe(element));
    }
    for (const element of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
      if (!shown(element) || (element as HTMLInputElement).value !== '') continue;
      check(element, getComputedStyle(element, '::placeholder').color, `${describe(element)} placeholder`);
    }
    return found;
  });
}

test.describe('dark mode', () => {
  test.describe.configure({ timeout: 90_000 });
  const unique = `-dark-${Date.now().toString(36)}-${process.pid}`;
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('every control reads at 4.5:1, the disabled «Сбросить масштаб» too, and axe is clean', async ({
    page,
    request,
  }) => {
    await signInWithApi(page, org.admin);
    const device = await createSmartOven(page, {
      cafe: `Кафе ${unique}`,
      fullAddress: 'Москва, Тверская, 1',
      city: 'Москва',
      timeZone: 'Europe/Moscow',
      name: `Печь ${unique}`,
      controllerId: `kc${unique}`,
    });
    const samples = everyMinute(30, Date.now() - MINUTE, (i) => ({
      current: 10 + (i % 5),
      temperature: 160 + (i % 7),
      door_open: false,
      state: 'cooking',
    }));
    await sendSamples(request, device.credential, samples);

    await page.goto(`/account/telemetry?devices=${device.id}`);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    const reset = page.getByRole('button', { name: 'Сбросить масштаб' }).first();
    await expect(reset).toBeDisabled();
    await expect(page.getByRole('figure', { name: 'Ток, А' }).locator('canvas')).toBeVisible();
    expect(await lowContrastControls(page)).toEqual([]);
    await expectNoAxeViolations(page);

    for (const path of ['/account/devices', '/account/addresses/add', '/account/profile']) {
      await page.goto(path);
      await expect(page.getByRole('navigation', { name: 'Основное меню' })).toBeVisible();
      await expect(page.getByRole('status', { name: 'Загрузка…' })).toHaveCount(0);
      expect(await lowContrastControls(page), path).toEqual([]);
      await expectNoAxeViolations(page);
    }
  });
});
