import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation } from '../test/builders.js';
import { TestClient } from '../test/http-client.js';
import { useTestApp } from '../test/test-app.js';
import { CONSOLE_PRELOADS_FILE, type ConsolePreloads, type ModuleSlug } from '@kontrol/contracts';
import {
  accountFrame,
  accountPreloads,
  earlyRequestLinks,
  jsonForHtml,
  withFrameFirst,
  withRootContent,
} from './console.js';

/**
 * A console build as it is written: index.html, the hashed assets and the private list of what
 * the frame and each account page need beyond the first bundle (CONSOLE_PRELOADS_FILE).
 */
const dist = mkdtempSync(join(tmpdir(), 'kontrol-console-'));
const preloads: ConsolePreloads = {
  frame: {
    scripts: ['assets/account-layout-e5.js', 'assets/Menu-d4.js'],
    styles: ['assets/account-layout-f6.css'],
  },
  pages: {
    dashboard: { scripts: ['assets/dashboard-page-g7.js', 'assets/Menu-d4.js'], styles: [] },
    no_access: { scripts: ['assets/no-access-page-h8.js'], styles: ['assets/account-layout-f6.css'] },
  },
};
const INDEX =
  '<!doctype html><html><head><title>Kontrol</title>' +
  '<script type="module" crossorigin src="/assets/index-a1.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-c3.css"></head>' +
  '<body><div id="root"><div class="boot-frame">Kontrol</div></div></body></html>';
mkdirSync(join(dist, '.vite'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), INDEX);
writeFileSync(join(dist, CONSOLE_PRELOADS_FILE), JSON.stringify(preloads));
writeFileSync(join(dist, 'assets/index-a1.js'), 'console.log(1);');

const inlined = (html: string) => {
  const match = /<script type="application\/json" id="kontrol-user">(.*?)<\/script>/s.exec(html);
  return match ? (JSON.parse(match[1] ?? '') as Record<string, unknown>) : undefined;
};

describe('console pages', () => {
  const t = useTestApp({ env: { CONSOLE_DIST: dist } });
  let signedIn: TestClient;
  let orgName: string;

  beforeAll(async () => {
    orgName = "Kitchen </script><!-- & $& $' \u2028";
    const { admin } = await buildOrganisation(t.db, { name: orgName });
    signedIn = new TestClient(t.app);
    await signedIn.login(admin.email, admin.password);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('inline the signed-in user and preload the frame and the page on an account page', async () => {
    const response = await signedIn.get('/account/dashboard?tab=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toMatch(/cookie/i);
    const user = inlined(response.body);
    expect(user).toMatchObject({ organisation: { name: orgName } });
    expect((user?.acl_modules as unknown[]).length).toBeGreaterThan(0);
    expect(response.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/account-layout-e5.js">',
    );
    expect(response.body).toContain('<link rel="modulepreload" crossorigin href="/assets/Menu-d4.js">');
    expect(response.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/dashboard-page-g7.js">',
    );
    expect(response.body).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/account-layout-f6.css">',
    );
    expect(response.body).toContain('<script type="module" crossorigin src="/assets/index-a1.js"></script>');
    // The console's stylesheet never blocks the frame's paint; the console switches it on.
    expect(response.body).toContain(
      '<link rel="stylesheet" media="print" data-console-styles crossorigin href="/assets/index-c3.css">',
    );
    // The frame replaces the boot frame, with the page's title in the console's default language.
    expect(response.body).toContain(
      '<div id="root"><div class="account-frame"><header class="account-frame-header"></header>',
    );
    expect(response.body).toContain('<h1 class="account-frame-title">Главная</h1>');
    expect(response.body).not.toContain('boot-frame');
    // The reference lists (the admin holds every module) and the dashboard's statistics start with
    // the page; the console's own requests for them are answered from these preloads.
    for (const url of ['/api/devices/', '/api/addresses/', '/api/rooms/', '/api/users', '/api/devices/stat'])
      expect(response.body).toContain(`<link rel="preload" as="fetch" crossorigin data-early href="${url}">`);
    // What the first bundle loads anyway is not listed again.
    expect(response.body).not.toContain('href="/assets/Box-b2.js"');
    expect(response.body.match(/href="\/assets\/index-c3.css"/g)).toHaveLength(1); // its own link only
  });

  it('write the frame in the language the console mirrors into its cookie', async () => {
    signedIn.cookies.set('kontrol_locale', 'en');
    try {
      const english = await signedIn.get('/account/dashboard');
      expect(english.body).toContain('<h1 class="account-frame-title">Dashboard</h1>');
      expect(english.body).toContain('aria-label="Loading…"');
      signedIn.cookies.set('kontrol_locale', 'xx');
      const unknown = await signedIn.get('/account/dashboard');
      expect(unknown.body).toContain('<h1 class="account-frame-title">Главная</h1>');
    } finally {
      signedIn.cookies.delete('kontrol_locale');
    }
  });

  it('escape the user so that no text in it can end the data block', async () => {
    const response = await signedIn.get('/account/no_access');
    const block = /id="kontrol-user">(.*?)<\/script>/s.exec(response.body)?.[1] ?? '';
    expect(block).not.toMatch(/[<>&\u2028]/);
    expect(block).toContain('\\u003c/script\\u003e\\u003c!--');
    expect(response.body.match(/<\/script>/g)).toHaveLength(2); // console, user
    expect(response.body).toContain('href="/assets/no-access-page-h8.js"');
    expect(inlined(response.body)).toMatchObject({ organisation: { name: orgName } });
  });

  it('serve the plain page, uncached per cookie, to an account page without a live session', async () => {
    for (const cookie of [undefined, 'kontrol_session=not-a-session']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/account/dashboard',
        headers: cookie ? { cookie } : {},
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toMatch(/cookie/i);
    }
  });

  it('never inline the user outside the account area', async () => {
    for (const path of ['/auth/login', '/', '/no/such/page', '/accounts/dashboard']) {
      const response = await signedIn.get(path);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('never inline the user after logout', async () => {
    const { admin } = await buildOrganisation(t.db);
    const client = new TestClient(t.app);
    await client.login(admin.email, admin.password);
    expect(inlined((await client.get('/account/profile')).body)).toBeDefined();
    expect((await client.post('/api/logout')).statusCode).toBeLessThan(300);
    expect((await client.get('/account/profile')).body).toBe(INDEX);
  });

  it('keep the list of preloads private', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/${CONSOLE_PRELOADS_FILE}` });
    expect(response.body).not.toContain('account-layout');
  });
});

describe('accountFrame', () => {
  const user = {
    acl_modules: [
      { id: 1, slug: 'dashboard' as const, name: 'Главная', is_client_system: true },
      { id: 2, slug: 'users' as const, name: 'Пользователи', is_client_system: true },
    ],
  };
  const title = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1];

  it("titles a module's own page the user holds with its sidebar label", () => {
    expect(title(accountFrame(user, '/account/dashboard', 'ru'))).toBe('Главная');
    expect(title(accountFrame(user, '/account/users', 'en'))).toBe('Users');
  });

  it('writes no title for a module the user does not hold, a deeper path or another page', () => {
    for (const path of ['/account/billing', '/account/users/5', '/account/profile', '/account', '/account/'])
      expect(title(accountFrame(user, path, 'ru'))).toBeUndefined();
    expect(accountFrame(user, '/account/profile', 'ru')).toContain('role="status" aria-label="Загрузка…"');
  });
});

describe('earlyRequestLinks', () => {
  const holding = (...slugs: ModuleSlug[]) => ({
    acl_modules: slugs.map((slug, index) => ({ id: index + 1, slug, name: slug, is_client_system: true })),
  });
  const hrefs = (html: string) => [...html.matchAll(/data-early href="([^"]+)"/g)].map((m) => m[1]);

  it("preloads only the lists the user's modules let them read", () => {
    expect(hrefs(earlyRequestLinks(holding('addresses'), '/account/addresses', ''))).toEqual([
      '/api/addresses/',
      '/api/rooms/',
    ]);
    expect(earlyRequestLinks(holding('billing', 'settings'), '/account/billing', '')).toBe('');
    // Each address once, however many modules allow it.
    const complaints = hrefs(earlyRequestLinks(holding('requests', 'devices'), '/account/requests', ''));
    expect(complaints).toEqual(['/api/devices/types/', '/api/devices/', '/api/addresses/', '/api/users']);
  });

  it("adds the dashboard's statistics on the dashboard itself, unless a type filter asks for others", () => {
    const user = holding('dashboard');
    expect(hrefs(earlyRequestLinks(user, '/account/dashboard', ''))).toContain('/api/devices/stat');
    expect(hrefs(earlyRequestLinks(user, '/account/dashboard', '?date=2026-11-20'))).toContain(
      '/api/devices/stat',
    );
    expect(hrefs(earlyRequestLinks(user, '/account/dashboard', '?type=3'))).not.toContain(
      '/api/devices/stat',
    );
    expect(hrefs(earlyRequestLinks(user, '/account/telemetry', ''))).not.toContain('/api/devices/stat');
    expect(hrefs(earlyRequestLinks(holding('devices'), '/account/dashboard', ''))).not.toContain(
      '/api/devices/stat',
    );
  });
});

describe('withRootContent', () => {
  it('replaces what #root holds and nothing else', () => {
    const html = '<body><div id="root"><div class="a"><div>x</div></div></div><script></script></body>';
    expect(withRootContent(html, '<p>y</p>')).toBe(
      '<body><div id="root"><p>y</p></div><script></script></body>',
    );
    expect(withRootContent('<body><main></main></body>', '<p>y</p>')).toBe('<body><main></main></body>');
  });
});

describe('withFrameFirst', () => {
  it('defers the stylesheets that have no media, and leaves scripts and preloads alone', () => {
    const html =
      '<script type="module" crossorigin src="/a.js"></script><link rel="modulepreload" href="/b.js">' +
      '<link rel="preload" as="style" href="/c.css"><link rel="stylesheet" href="/d.css">' +
      '<link rel="stylesheet" media="print" href="/e.css"><script type="application/json">{}</script>';
    expect(withFrameFirst(html)).toBe(
      '<script type="module" crossorigin src="/a.js"></script>' +
        '<link rel="modulepreload" href="/b.js">' +
        '<link rel="preload" as="style" href="/c.css">' +
        '<link rel="stylesheet" media="print" data-console-styles href="/d.css">' +
        '<link rel="stylesheet" media="print" href="/e.css"><script type="application/json">{}</script>',
    );
  });
});

describe('jsonForHtml', () => {
  it('reads back as the same value', () => {
    const value = { name: '</script><!-- a & b \u2028 \u2029 "q"' };
    expect(JSON.parse(jsonForHtml(value))).toEqual(value);
  });
});

describe('accountPreloads', () => {
  it('preloads the frame and the page, each file once, scripts before stylesheets', () => {
    expect(accountPreloads(preloads, '/account/no_access')).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/account-layout-e5.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/Menu-d4.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/no-access-page-h8.js">' +
        '<link rel="preload" as="style" crossorigin href="/assets/account-layout-f6.css">',
    );
  });

  it('preloads only the frame for a path deeper than one level, or a page the list lacks', () => {
    for (const path of [
      '/account/dashboard/3',
      '/account/telemetry',
      '/account/constructor',
      '/account/__proto__',
    ]) {
      const links = accountPreloads(preloads, path);
      expect(links).toContain('account-layout-e5.js');
      expect(links).not.toContain('dashboard-page');
      expect(links).not.toContain('no-access-page');
    }
  });
});
