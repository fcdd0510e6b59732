import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  API_BASE_PATH,
  CONSOLE_PRELOADS_FILE,
  DEFAULT_LOCALE,
  DEVICE_STAT_URL,
  EARLY_FETCH_ATTRIBUTE,
  INLINE_USER_ELEMENT_ID,
  LOCALE_COOKIE,
  MODULE_LABELS,
  MODULE_SLUGS,
  REFERENCE_LISTS,
  isLocale,
  translate,
  type AuthUser,
  type ConsolePreloads,
  type Locale,
} from '@kontrol/contracts';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../lib/html.js';
import { toAuthUser } from '../modules/users/users.presenter.js';
import { sessionUser } from './auth.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * JSON that can sit inside `<script type="application/json">`: `<`, `>` and `&` are written as
 * `\u003c`, `\u003e` and `\u0026` (so no `</script>` or `<!--` can end or change the element),
 * and the two line separators JavaScript once rejected are escaped too. `JSON.parse` reads it back
 * unchanged.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The console build's list of what each account page needs (CONSOLE_PRELOADS_FILE), if it wrote one. */
function readPreloads(root: string): ConsolePreloads | undefined {
  const file = join(root, CONSOLE_PRELOADS_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ConsolePreloads;
  } catch {
    return undefined;
  }
}

/**
 * The `<link>` tags that fetch, beside the first bundle, what an account page needs next: the
 * account frame's scripts and stylesheets and those of the page one level below `/account/` that
 * the path names, as the console's build listed them (`vite.config.ts`). Stylesheets are
 * preloaded, not linked: the boot frame paints without waiting for them, and the chunk's loader
 * (Vite's) links them, from the cache, before the chunk runs.
 */
export function accountPreloads(preloads: ConsolePreloads, pathname: string): string {
  const parts = [preloads.frame];
  const segments = pathname.split('/').filter(Boolean);
  const segment = segments[1];
  if (segments.length === 2 && segment !== undefined && Object.hasOwn(preloads.pages, segment)) {
    const page = preloads.pages[segment];
    if (page) parts.push(page);
  }
  const scripts = new Set(parts.flatMap((part) => part.scripts));
  const styles = new Set(parts.flatMap((part) => part.styles));
  return [
    ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...[...styles].map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ].join('');
}

/**
 * The `<link rel="preload" as="fetch">` tags of an account page's early requests: the reference
 * lists the user's modules let them read (the console's reference data, docs/contract.md, "Product and areas") and, for the
 * dashboard itself without a type filter, the organisation's statistics. The browser starts them
 * as it reads the page, while it still evaluates the console, at no cost to the main thread; the
 * console's own request for the same address (apps/console src/early) is answered from them.
 * `crossorigin`: the credentials mode of a plain `fetch()`, which the console's request must match.
 */
export function earlyRequestLinks(
  user: Pick<AuthUser, 'acl_modules'>,
  pathname: string,
  search: string,
): string {
  const held = new Set(user.acl_modules.map((m) => m.slug));
  const urls = new Set<string>();
  for (const { url, modules } of Object.values(REFERENCE_LISTS))
    if (modules.some((slug) => held.has(slug))) urls.add(url);
  if (held.has('dashboard') && pathname === '/account/dashboard' && !new URLSearchParams(search).has('type'))
    urls.add(DEVICE_STAT_URL);
  return [...urls]
    .map(
      (url) =>
        `<link rel="preload" as="fetch" crossorigin ${EARLY_FETCH_ATTRIBUTE} href="${API_BASE_PATH}${url}">`,
    )
    .join('');
}

/** The loader's accessible name, in the frame's language (the console's `PageLoader` says the same). */
const LOADING: Record<Locale, string> = { ru: 'Загрузка…', en: 'Loading…' };

/**
 * The account frame the server writes into `#root` for a signed-in visitor, in place of the boot
 * frame: the header bar, the sidebar's place (wide screens), the page's `h1` and a loader, laid out
 * as the console's AppShell lays them out (apps/console index.html holds the styles; a browser test
 * holds the two together). The page paints at once, before any script has arrived, and the
 * console replaces it with the same frame when it starts. The title is written for a module's own
 * page (`/account/dashboard`, …) that the user holds: its sidebar label (`MODULE_LABELS`), which is
 * the page's title in the console too (a console test holds that); other pages get no title here.
 */
export function accountFrame(user: Pick<AuthUser, 'acl_modules'>, pathname: string, locale: Locale): string {
  const segments = pathname.split('/').filter(Boolean);
  const slug = segments.length === 2 ? segments[1] : undefined;
  const module = MODULE_SLUGS.find((s) => s === slug);
  const held = module !== undefined && user.acl_modules.some((m) => m.slug === module);
  const title = held
    ? `<h1 class="account-frame-title">${escapeHtml(MODULE_LABELS[module][locale])}</h1>`
    : '';
  return (
    '<div class="account-frame">' +
    '<header class="account-frame-header"></header>' +
    '<div class="account-frame-navbar"></div>' +
    `<main class="account-frame-main">${title}` +
    `<div class="boot-loader" role="status" aria-label="${escapeHtml(LOADING[locale])}"></div></main>` +
    '</div>'
  );
}

/**
 * `html` with the content of `<div id="root">` (up to the last `</div>` before `</body>`) replaced
 * by `content`; unchanged when the page has no such element.
 */
export function withRootContent(html: string, content: string): string {
  const open = '<div id="root">';
  const start = html.indexOf(open);
  const bodyEnd = html.lastIndexOf('</body>');
  const end = html.lastIndexOf('</div>', bodyEnd);
  if (start === -1 || bodyEnd === -1 || end < start) return html;
  return `${html.slice(0, start + open.length)}${content}${html.slice(end)}`;
}

/** Marks the stylesheets the console applies itself before its first render (apps/console main.tsx). */
export const DEFERRED_STYLES_ATTRIBUTE = 'data-console-styles';

/**
 * The page as an account frame needs it: the frame has its own styles (inline in index.html), so
 * the console's stylesheets need not block its first paint. They load as `media="print"`, which
 * never blocks rendering, marked with {@link DEFERRED_STYLES_ATTRIBUTE}: the console switches them
 * on, and waits for them, before it replaces the frame. Scripts keep their priority: fetched at
 * low priority they came after the reference lists, and the dashboard of 5 000 devices showed
 * about 100 ms later (docs/benchmarks.md).
 */
export function withFrameFirst(html: string): string {
  return html.replace(
    /<link rel="stylesheet"(?![^>]*\smedia=)/g,
    `<link rel="stylesheet" media="print" ${DEFERRED_STYLES_ATTRIBUTE}`,
  );
}

/** The language of the signed-in visitor's console, as it mirrors it in {@link LOCALE_COOKIE}. */
function frameLocale(request: FastifyRequest): Locale {
  const value = request.cookies[LOCALE_COOKIE];
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

function isAccountPath(path: string): boolean {
  return path === '/account' || path.startsWith('/account/');
}

/**
 * Serves the built console: hashed assets cached for a year, `index.html` never cached, and every
 * other page path answered with `index.html` so the console's router can show it (or its own
 * not-found page). API paths that match nothing answer a JSON 404.
 *
 * An account page requested with a live session gets `index.html` with the signed-in user inlined
 * as a JSON data block (`<script type="application/json" id="kontrol-user">`, never executed, so
 * the CSP stays as it is) and preload links for the account frame and the page, so the console
 * shows the page without first asking `GET /api/users/auth` and then for the frame's script.
 * It also starts the early reference requests ({@link earlyRequestLinks}). That answer is
 * personal: `Cache-Control: no-store`, `Vary: Cookie`.
 */
export const consolePlugin = fp(
  async (app: FastifyInstance, options: { root: string }) => {
    const indexFile = join(options.root, 'index.html');
    const built = existsSync(indexFile);
    // Read once: both change only with a new build, which means a new deployment.
    const indexHtml = built ? readFileSync(indexFile, 'utf8') : '';
    const preloads = built ? readPreloads(options.root) : undefined;
    // An account page's HTML before the user and the frame go in, worked out once.
    const accountHtml = withFrameFirst(indexHtml);
    if (built) {
      await app.register(fastifyStatic, {
        root: options.root,
        prefix: '/',
        wildcard: false,
        index: false,
        preCompressed: true,
        // The build's own lists (.vite/) stay private: dot files are never served.
        serveDotFiles: false,
        setHeaders: (reply, path) => {
          reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
        },
      });
    } else {
      app.log.warn({ root: options.root }, 'console is not built; only the API is served');
    }

    const accountPage = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
      reply.header('vary', 'cookie');
      const user = await sessionUser(request);
      if (!user || !indexHtml.includes('</head>'))
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      const authUser = toAuthUser(user);
      const head =
        `<script type="application/json" id="${INLINE_USER_ELEMENT_ID}">${jsonForHtml(authUser)}</script>` +
        earlyRequestLinks(authUser, path, request.url.slice(path.length)) +
        (preloads ? accountPreloads(preloads, path) : '');
      const html = withRootContent(
        accountHtml.replace('</head>', () => `${head}</head>`), // a function: no `$&` patterns
        accountFrame(authUser, path, frameLocale(request)),
      );
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
    };

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !path.startsWith('/api/') &&
        !path.startsWith('/assets/') &&
        built;
      if (isPage) {
        if (isAccountPath(path)) return accountPage(request, reply, path);
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send({ message: translate(request.locale, 'http.not_found') });
    });
  },
  { name: 'console', dependencies: ['auth'] },
);
