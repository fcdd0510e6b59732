import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { BrowserContext } from '@playwright/test';
import { seedFixtures, startServer, type Fixtures } from '../test-support/server.mjs';
import { databaseUrl, expect, sidebar, signInWithApi, test, urlWithPath } from './support/fixtures';

/**
 * Billing (docs/contract.md, "Screens and routes" billing; docs/billing.md) in a real browser, in Russian, as the admin of an
 * organisation of this spec's own. On the shared server, started with the sandbox payment
 * provider (PAYMENT_PROVIDER=sandbox, e2e/global-setup.ts): opens «Биллинг», fills the
 * organisation's requisites; tops the balance up by 1 500 ₽ on the sandbox provider's page and
 * comes back to a success message and a balance exactly 1 500 ₽ higher, with the payment in the
 * history marked as test money; a second top-up declined on the sandbox page leaves the balance
 * as it was; an invoice for 2 000 ₽ downloads as a PDF. On a server of its own with the default
 * settings (no provider): the page says online payment is not available, «Пополнить» issues an
 * invoice, and neither the API nor the sandbox's page takes a payment. axe finds no serious or
 * critical violation on each tab.
 */

/** axe on the page as it stands: nothing serious or critical. */
async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      })),
  ).toEqual([]);
}

/** The balance the API reports, in kopecks. */
async function apiBalance(page: Page): Promise<number> {
  const response = await page.request.get('/api/users/balance');
  expect(response.status(), 'GET /api/users/balance').toBe(200);
  return ((await response.json()) as { data: { balance: number } }).data.balance;
}

/** The balance figure of the balance tab. */
const balanceFigure = (page: Page) => page.locator('[data-balance]');

/** `kopecks` as the Russian interface writes it, spaces made plain: «1 500,00 ₽». */
const roubles = (kopecks: number) =>
  new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol' })
    .format(kopecks / 100)
    .replace(/\s/g, ' ');

/** Opens the top-up dialog, asks for `amount` roubles and lands on the sandbox provider's page. */
async function startTopUp(page: Page, amount: string) {
  await page.getByRole('button', { name: 'Пополнить', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Пополнение баланса' });
  await expect(dialog.getByText('Тестовый режим')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Сумма, ₽/ }).fill(amount);
  await dialog.getByRole('button', { name: 'Перейти к оплате' }).click();
  await expect(page).toHaveURL(/\/api\/payment\/sandbox\/[A-Za-z0-9_-]+\?lang=ru$/);
  await expect(page.getByRole('heading', { name: 'Тестовая оплата' })).toBeVisible();
}

test.describe('billing', () => {
  // Several pages, two round trips through the provider's page and a PDF on a loaded machine.
  test.describe.configure({ timeout: 180_000 });

  const unique = `-billing-${Date.now().toString(36)}-${process.pid}`;
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('an admin fills the requisites, tops up, sees a declined payment change nothing, and issues an invoice', async ({
    page,
  }) => {
    await signInWithApi(page, org.admin);
    await page.goto('/account/profile');
    await sidebar(page).getByRole('link', { name: 'Биллинг' }).click();
    await expect(page).toHaveURL(urlWithPath('/account/billing'));
    await expect(page.getByRole('heading', { level: 1, name: 'Биллинг' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Баланс', selected: true })).toBeVisible();
    await expect(balanceFigure(page)).toBeVisible();
    // The pointer still rests on the current sidebar entry: its hover keeps the text's contrast.
    await expectNoSeriousAxeViolations(page);

    // The organisation's requisites (a company: INN, KPP, OGRN, the bank's BIK and accounts).
    await page.getByRole('tab', { name: 'Организация' }).click();
    await expect(page).toHaveURL(urlWithPath('/account/billing', '?tab=organisation'));
    const field = (name: RegExp) => page.getByRole('textbox', { name });
    await field(/^Полное наименование/).fill('ООО «Кафе на Тверской»');
    await field(/^ИНН/).fill('7707083893');
    await field(/^КПП/).fill('773601001');
    await field(/^ОГРН \/ ОГРНИП/).fill('1027700132195');
    await field(/^Юридический адрес/).fill('117312, г. Москва, ул. Вавилова, д. 19');
    await field(/^Наименование банка/).fill('ПАО Сбербанк');
    await field(/^БИК/).fill('044525225');
    await field(/^Корреспондентский счёт/).fill('30101810400000000225');
    await field(/^Расчётный счёт/).fill('40702810638000000000');
    await field(/^Руководитель/).fill('Иванов Иван Иванович');
    await field(/^E-mail для документов/).fill(`buh${unique}@e2e.kontrol.test`);
    // A mistyped INN is caught before anything is sent, under its field.
    await field(/^ИНН/).fill('7707083894');
    await page.getByRole('button', { name: 'Сохранить реквизиты' }).click();
    await expect(field(/^ИНН/)).toHaveAttribute('aria-invalid', 'true');
    await expect(
      page.getByText('ИНН — 10 цифр для организации или 12 для ИП; контрольная цифра не сходится.'),
    ).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Исправьте следующие ошибки' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await field(/^ИНН/).fill('7707083893');
    await page.getByRole('button', { name: 'Сохранить реквизиты' }).click();
    await expect(page.getByText('Сохранено.')).toBeVisible();
    const saved = await page.request.get('/api/users/organization');
    expect(((await saved.json()) as { data: { inn: string } | null }).data?.inn).toBe('7707083893');

    // A top-up of 1 500 ₽, paid on the sandbox provider's page.
    await page.getByRole('tab', { name: 'Баланс' }).click();
    await expect(balanceFigure(page)).toBeVisible();
    const topUp = await page.request.get('/api/users/balance');
    expect(
      ((await topUp.json()) as { data: { top_up: { provider: string | null } } }).data.top_up.provider,
      'the server must run with PAYMENT_PROVIDER=sandbox',
    ).toBe('sandbox');
    await expect(page.getByText('Онлайн-оплата работает в тестовом режиме', { exact: false })).toBeVisible();
    const before = await apiBalance(page);
    await expect(balanceFigure(page)).toHaveAttribute('data-balance', String(before));
    await startTopUp(page, '1500');
    await page.getByRole('button', { name: /^Оплатить/ }).click();
    await expect(page).toHaveURL(/\/account\/billing\?payment=\d+$/);
    const paymentId = new URL(page.url()).searchParams.get('payment');
    await expect(page.getByText('Оплата получена')).toBeVisible();
    const afterPayment = before + 150_000;
    await expect(balanceFigure(page)).toHaveAttribute('data-balance', String(afterPayment));
    await expect(balanceFigure(page)).toHaveText(roubles(afterPayment), { useInnerText: true });
    expect(await apiBalance(page)).toBe(afterPayment);
    await expect(
      page.getByRole('table', { name: 'Онлайн-платежи' }).getByText(`№ ${paymentId}`),
    ).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    // The history holds the payment.
    await page.getByRole('tab', { name: 'История' }).click();
    await expect(page).toHaveURL(/\/account\/billing\?.*tab=history/);
    const history = page.getByRole('table', { name: 'История баланса' });
    const entry = history.getByRole('row').filter({ hasText: `платёж № ${paymentId}` });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('+1 500,00 ₽', { useInnerText: true });
    // Nobody paid it: the sandbox's credit is test money.
    await expect(entry).toContainText('Тестовые деньги');
    await expectNoSeriousAxeViolations(page);

    // A second top-up, declined on the provider's page: the balance stays.
    await page.getByRole('tab', { name: 'Баланс' }).click();
    await startTopUp(page, '700');
    await page.getByRole('button', { name: 'Отклонить платёж' }).click();
    await expect(page).toHaveURL(/\/account\/billing\?payment=\d+$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Платёж не прошёл' })).toBeVisible();
    await expect(balanceFigure(page)).toHaveAttribute('data-balance', String(afterPayment));
    expect(await apiBalance(page)).toBe(afterPayment);
    await expectNoSeriousAxeViolations(page);

    // An invoice for 2 000 ₽, downloaded as its PDF.
    await page.getByRole('button', { name: 'Выставить счёт', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Выставить счёт' });
    await dialog.getByRole('textbox', { name: /Сумма, ₽/ }).fill('2000');
    await dialog.getByRole('button', { name: 'Выставить счёт' }).click();
    await expect(dialog.getByText('Счёт выставлен')).toBeVisible();
    await expect(dialog.getByText(/^Счёт № \d{4}-\d+ от .+ на 2\s000,00\s₽/)).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    const downloaded = page.waitForEvent('download');
    await dialog.getByRole('link', { name: 'Скачать счёт (PDF)' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = await readFile(await download.path());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.keyboard.press('Escape');
    await expect(
      page.getByRole('table', { name: 'Документы' }).getByRole('link', { name: /^Скачать: Счёт №/ }),
    ).toHaveCount(1);
  });
});

test.describe('billing without a payment provider (the default settings)', () => {
  // A server of its own, started as a deployment would be: no PAYMENT_PROVIDER.
  test.describe.configure({ timeout: 180_000 });

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let org: Fixtures;
  let context: BrowserContext;

  test.beforeAll(async ({ browser }) => {
    // A server of its own: starting it and seeding take more than a test's 30 s on a busy machine.
    test.setTimeout(120_000);
    server = await startServer({ env: { PAYMENT_PROVIDER: 'none' } });
    org = seedFixtures({ databaseUrl: server.databaseUrl, suffix: `-no-provider-${process.pid}` });
    context = await browser.newContext({ baseURL: server.baseURL, locale: 'ru-RU' });
  });

  test.afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  test('an admin is told online payment is not available, tops up by invoice, and cannot pay online', async () => {
    const page = await context.newPage();
    await signInWithApi(page, org.admin);
    await page.goto('/account/billing');
    await expect(balanceFigure(page)).toBeVisible();
    await expect(
      page.getByText(
        'Онлайн-оплата недоступна: баланс пополняется по счёту, оплаченному банковским переводом.',
      ),
    ).toBeVisible();
    const before = await apiBalance(page);

    // The attack through the API: no payment is made, no sandbox page exists.
    const xsrf = decodeURIComponent(
      (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '',
    );
    const online = await page.request.post('/api/payment/create', {
      data: { amount: 1_000_000_00 },
      headers: { 'X-XSRF-TOKEN': xsrf, Accept: 'application/json' },
    });
    expect(online.status()).toBe(409);
    expect(((await online.json()) as { message: string }).message).toMatch(/^Онлайн-оплата не подключена/);
    const sandbox = await page.request.get('/api/payment/sandbox/abcdefghijklmnopqrstuvwx');
    expect(sandbox.status()).toBe(404);

    // «Пополнить» offers the invoice, to pay by bank transfer.
    await page.getByRole('tab', { name: 'Организация' }).click();
    const field = (name: RegExp) => page.getByRole('textbox', { name });
    await field(/^Полное наименование/).fill('ООО «Кафе на Арбате»');
    await field(/^ИНН/).fill('7707083893');
    await field(/^КПП/).fill('773601001');
    await field(/^ОГРН \/ ОГРНИП/).fill('1027700132195');
    await field(/^Юридический адрес/).fill('119002, г. Москва, ул. Арбат, д. 1');
    await field(/^Наименование банка/).fill('ПАО Сбербанк');
    await field(/^БИК/).fill('044525225');
    await field(/^Корреспондентский счёт/).fill('30101810400000000225');
    await field(/^Расчётный счёт/).fill('40702810638000000000');
    await field(/^Руководитель/).fill('Петров Пётр Петрович');
    await field(/^E-mail для документов/).fill(`buh-no-provider-${process.pid}@e2e.kontrol.test`);
    await page.getByRole('button', { name: 'Сохранить реквизиты' }).click();
    await expect(page.getByText('Сохранено.')).toBeVisible();
    await page.getByRole('tab', { name: 'Баланс' }).click();
    await page.getByRole('button', { name: 'Пополнить', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Пополнение баланса' });
    await expect(dialog.getByText('Онлайн-оплата недоступна', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Перейти к оплате' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
    await dialog.getByRole('textbox', { name: /Сумма, ₽/ }).fill('3000');
    await dialog.getByRole('button', { name: 'Выставить счёт' }).click();
    await expect(dialog.getByText('Счёт выставлен')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Скачать счёт (PDF)' })).toBeVisible();
    await page.keyboard.press('Escape');
    // The invoice is issued; nothing is credited until the bank transfer arrives.
    expect(await apiBalance(page)).toBe(before);
    await expect(balanceFigure(page)).toHaveAttribute('data-balance', String(before));
  });
});
