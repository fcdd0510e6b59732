import { resolve } from 'node:path';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FRAME_MODULE, ACCOUNT_PAGE_MODULES } from './account-pages';

const CONSOLE_ROOT = resolve(import.meta.dirname, '../..');

/** The component a route's `lazy` gives, loaded as the router loads it. */
async function lazyComponent(route: RouteObject): Promise<unknown> {
  expect(typeof route.lazy, `${route.path ?? '(index)'} is loaded on demand`).toBe('function');
  const loaded = await (route.lazy as () => Promise<{ Component?: unknown }>)();
  return loaded.Component;
}

/** The exports of a module named as account-pages.ts names it. */
async function exportsOf(module: string): Promise<unknown[]> {
  const loaded = (await import(/* @vite-ignore */ resolve(CONSOLE_ROOT, module))) as Record<string, unknown>;
  return Object.values(loaded);
}

// The build preloads, for an account page the server sends, the chunks of the modules
// account-pages.ts names (vite.config.ts); if the router loaded another, the preloads would be wasted.
describe('the account pages the build lists for preloading', () => {
  it('are the modules the router loads for the frame and for each page', async () => {
    const { routes } = await import('./router');
    const frame = matchRoutes(routes, '/account/profile')?.find((match) => match.route.path === 'account');
    expect(await exportsOf(ACCOUNT_FRAME_MODULE)).toContain(await lazyComponent(frame!.route));
    for (const [segment, module] of Object.entries(ACCOUNT_PAGE_MODULES)) {
      const page = matchRoutes(routes, `/account/${segment}`)?.at(-1);
      expect(page?.route.path ?? page?.route.index, segment).not.toBe('*');
      expect(await exportsOf(module), segment).toContain(await lazyComponent(page!.route));
    }
  }, 60_000);
});
