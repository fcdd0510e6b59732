import type { Locator, Page } from '@playwright/test';
import { expect, logins, signInWithApi, test } from './support/fixtures';

// docs/console-shell.md, "Phones": at 375 px nothing runs off the screen.
test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

/** The page scrolls sideways (something is wider than the screen). */
function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** The locator's box lies within the screen's width. */
async function expectWithinWidth(locator: Locator, width = 375) {
  const box = await locator.boundingBox();
  expect(box, 'a box').not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

test('at 375 px the header fits: the user menu is an icon named by the user', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Главная' })).toBeVisible();
  const header = page.getByRole('banner');
  const overflow = await header.evaluate((element) =>
    [element, ...element.querySelectorAll('*')].some((node) => {
      const box = node.getBoundingClientRect();
      return box.width > 0 && (box.left < 0 || box.right > window.innerWidth);
    }),
  );
  expect(overflow, 'something in the header runs off the screen').toBe(false);
  const menu = page.getByRole('button', { name: logins.admin.name });
  await expect(menu).toBeVisible();
  await expectWithinWidth(menu);
  expect((await menu.boundingBox())?.width ?? 999).toBeLessThanOrEqual(44);
  await menu.click();
  await expect(page.getByRole('menuitem', { name: 'Профиль' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Выход' })).toBeVisible();
  expect(await overflowsSideways(page)).toBe(false);
});

test('at 375 px the telemetry period fits the screen', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/telemetry');
  const period = page.getByRole('radiogroup', { name: 'Период' });
  await expect(period).toBeVisible();
  for (const option of await period.getByRole('radio').all()) {
    await expectWithinWidth(option.locator('xpath=..'));
  }
  await expectWithinWidth(period);
  expect(await overflowsSideways(page)).toBe(false);
});

test('at 375 px the devices filters wait behind «Фильтры»', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/devices');
  const filters = page.getByRole('button', { name: 'Фильтры', exact: true });
  await expect(filters).toBeVisible();
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  const typeFilter = page.getByRole('combobox', { name: 'Тип', exact: true });
  await expect(typeFilter).toBeHidden();
  await filters.click();
  await expect(filters).toHaveAttribute('aria-expanded', 'true');
  await expect(typeFilter).toBeVisible();
  expect(await overflowsSideways(page)).toBe(false);
});
