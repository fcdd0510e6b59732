import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  test as base,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import type { Fixtures, Login } from '../../test-support/server.mjs';

/**
 * What every spec shares: the seeded logins (global-setup.ts), the texts of docs/console-shell.md,
 * and the few steps several specs take (signing in, reading local storage, the XSRF token, a smart
 * oven and its samples).
 */

function readLogins(): Fixtures {
  const raw = process.env.E2E_FIXTURES;
  if (!raw)
    throw new Error('E2E_FIXTURES is not set: run the specs through `npm run test:e2e` (global setup)');
  return JSON.parse(raw) as Fixtures;
}

export const logins = readLogins();
export type { Login };

/** docs/contract.md, "Screens and routes" sidebar, in its order, with the paths of docs/console-shell.md. */
export const SIDEBAR_ENTRIES = [
  { slug: 'dashboard', path: '/account/dashboard', ru: 'Главная', en: 'Dashboard' },
  { slug: 'telemetry', path: '/account/telemetry', ru: 'Телеметрия', en: 'Telemetry' },
  { slug: 'requests', path: '/account/requests', ru: 'Жалобы', en: 'Complaints' },
  {
    slug: 'device_event_template',
    path: '/account/device_event_templates',
    ru: 'Шаблоны тока',
    en: 'Current templates',
  },
  { slug: 'recipes', path: '/account/recipes', ru: 'Рецепты', en: 'Recipes' },
  { slug: 'addresses', path: '/account/addresses', ru: 'Адреса', en: 'Addresses' },
  { slug: 'devices', path: '/account/devices', ru: 'Оборудование', en: 'Equipment' },
  { slug: 'users', path: '/account/users', ru: 'Пользователи', en: 'Users' },
  { slug: 'settings', path: '/account/settings', ru: 'Настройки', en: 'Settings' },
  { slug: 'billing', path: '/account/billing', ru: 'Биллинг', en: 'Billing' },
] as const;

export const test = base;
export { expect };

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches a page URL by its path, with any query (`search`: exactly that query, `?` included). */
export function urlWithPath(pathname: string, search?: string): RegExp {
  const query = search === undefined ? '(?:\\?[^#]*)?' : escapeRegExp(search);
  return new RegExp(`^https?://[^/]+${escapeRegExp(pathname)}${query}(?:#.*)?$`);
}

/** The login form of docs/console-shell.md (Russian). */
export function loginForm(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1, name: 'Вход в систему' }),
    email: page.getByRole('textbox', { name: 'E-mail' }),
    password: page.getByLabel('Пароль', { exact: true }),
    submit: page.getByRole('button', { name: 'Войти', exact: true }),
  };
}

/** Signs in through the login form, which must be on screen. */
export async function signInWithForm(page: Page, login: Login) {
  const form = loginForm(page);
  await form.email.fill(login.email);
  await form.password.fill(login.password);
  await form.submit.click();
}

/** The XSRF-TOKEN cookie of the browser context, as the X-XSRF-TOKEN header wants it. */
export async function xsrfToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('the browser holds no XSRF-TOKEN cookie');
  return decodeURIComponent(cookie.value);
}

/**
 * Signs in through the API in the page's own cookie jar (as the console does: csrf-cookie, then
 * POST /api/login with X-XSRF-TOKEN), without touching the page; the next navigation is signed in.
 */
export async function signInWithApi(page: Page, login: Login) {
  const csrf = await page.request.get('/sanctum/csrf-cookie');
  expect(csrf.status(), 'GET /sanctum/csrf-cookie').toBe(204);
  const response = await page.request.post('/api/login', {
    data: { email: login.email, password: login.password },
    headers: { 'X-XSRF-TOKEN': await xsrfToken(page.context()), Accept: 'application/json' },
  });
  expect(response.status(), `POST /api/login as ${login.email}`).toBe(200);
}

export function storageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => window.localStorage.getItem(name), key);
}

/** The sidebar landmark (desktop) — docs/console-shell.md: navigation "Основное меню". */
export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Основное меню' });
}

/**
 * True when none of the elements is shown to the user: none left in the accessibility tree, or each
 * without a box, invisible, or entirely outside the viewport (an off-canvas panel).
 */
export async function noneShown(locator: Locator): Promise<boolean> {
  return locator.evaluateAll((elements) =>
    elements.every((element) => {
      const box = element.getBoundingClientRect();
      const style = window.getComputedStyle(element);
      return (
        box.width === 0 ||
        box.height === 0 ||
        style.visibility === 'hidden' ||
        box.right <= 0 ||
        box.bottom <= 0 ||
        box.left >= window.innerWidth ||
        box.top >= window.innerHeight
      );
    }),
  );
}

/**
 * A time field of the console (apps/console/src/components/time-field.tsx): a group named by its
 * label, holding an hours and a minutes field on a 24-hour clock.
 */
export function timeField(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('group', { name, exact: true });
}

/** Types a time (`HH:MM`) into a time field as a person does: the hours field, then digits only. */
export async function fillTime(field: Locator, time: string) {
  await field.getByRole('spinbutton').first().click();
  await field.page().keyboard.type(time.replace(':', ''));
}

/** Expects a time field to show `HH:MM`. */
export async function expectTime(field: Locator, time: string) {
  const [hours, minutes] = time.split(':');
  await expect(field.getByRole('spinbutton').nth(0)).toHaveValue(hours ?? '');
  await expect(field.getByRole('spinbutton').nth(1)).toHaveValue(minutes ?? '');
}

/**
 * The RU/EN switch: a radio group labelled "Язык интерфейса" (or "Interface language"). The
 * contract names the options RU and EN; the current switch names them in their own language
 * ("Русский", "English") with RU/EN shown. Either is accepted.
 */
export function languageOption(page: Page, language: 'ru' | 'en'): Locator {
  const group = page.getByRole('radiogroup', { name: /^(Язык интерфейса|Interface language)$/ });
  return group.getByRole('radio', { name: language === 'en' ? /^(EN|English)$/ : /^(RU|Русский)$/ });
}

/** Chooses a language on the switch: the radio itself, or its label when the input is hidden. */
export async function chooseLanguage(page: Page, language: 'ru' | 'en') {
  const radio = languageOption(page, language);
  const id = await radio.getAttribute('id');
  if (id && !(await radio.isVisible())) await page.locator(`label[for="${id}"]`).click();
  else await radio.check();
  await expect(radio).toBeChecked();
}

/** The e2e database (global-setup.ts sets it); the specs seed their own fixtures into it. */
export function databaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: run the specs through `npm run test:e2e`');
  return url;
}

/** A creating API call in the page's session (X-XSRF-TOKEN as the console sends it), which must answer 201. */
export async function postCreated<T>(page: Page, url: string, data: unknown): Promise<T> {
  const response = await page.request.post(url, {
    data,
    headers: { 'X-XSRF-TOKEN': await xsrfToken(page.context()), Accept: 'application/json' },
  });
  expect(response.status(), `POST ${url}: ${await response.text()}`).toBe(201);
  return ((await response.json()) as { data: T }).data;
}

/**
 * A smart combi oven through the API in the page's session: an address in `city` (no work hours),
 * a room «Горячий цех» in it, and the oven with `controllerId`; answers its id and credential.
 */
export async function createSmartOven(
  page: Page,
  oven: {
    cafe: string;
    fullAddress: string;
    city: string;
    timeZone: string;
    name: string;
    controllerId: string;
  },
): Promise<{ id: number; credential: string }> {
  const address = await postCreated<{ id: number }>(page, '/api/addresses/', {
    name: oven.cafe,
    full_address: oven.fullAddress,
    city: oven.city,
    time_zone: oven.timeZone,
    work_time: { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null },
  });
  const room = await postCreated<{ id: number }>(page, '/api/rooms/', {
    name: 'Горячий цех',
    address_id: address.id,
  });
  const types = (await (await page.request.get('/api/devices/types/')).json()) as {
    data: { data: { id: number; slug: string }[] };
  };
  const combi = types.data.data.find((type) => type.slug === 'combi_oven');
  if (!combi) throw new Error('no combi_oven device type');
  const device = await postCreated<{ id: number; credential: string | null }>(page, '/api/devices/', {
    name: oven.name,
    type_id: combi.id,
    room_id: room.id,
    controller_id: oven.controllerId,
  });
  if (!device.credential) throw new Error('the smart device came without its credential');
  return { id: device.id, credential: device.credential };
}

export const MINUTE = 60_000;

/** A sample as a device sends it (docs/device-protocol.md). */
export interface DeviceSample {
  ts: number;
  current: number;
  temperature: number;
  door_open: boolean;
  state: string;
}

/** `count` samples one minute apart, the last one at `lastAt`; `values(i)` gives the i-th one's readings. */
export function everyMinute(
  count: number,
  lastAt: number,
  values: (i: number) => Omit<DeviceSample, 'ts'>,
): DeviceSample[] {
  return Array.from({ length: count }, (_, i) => ({ ts: lastAt - (count - 1 - i) * MINUTE, ...values(i) }));
}

/** Sends samples as the device does (HTTP ingest, its credential); every one must be accepted. */
export async function sendSamples(
  request: APIRequestContext,
  credential: string,
  samples: DeviceSample | DeviceSample[],
) {
  const response = await request.post('/api/ingest/v1/telemetry', {
    data: samples,
    headers: { Authorization: `Bearer ${credential}` },
  });
  expect(response.status(), await response.text()).toBe(202);
  const answer = (await response.json()) as { data: { accepted: number; rejected: unknown[] } };
  expect(answer.data.rejected).toEqual([]);
  expect(answer.data.accepted).toBe(Array.isArray(samples) ? samples.length : 1);
}

/** axe on the page as it stands: no violation at all. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    })),
  ).toEqual([]);
}
