import { MODULE_LABELS, MODULE_SLUGS } from '@kontrol/contracts';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import ruAccount from '../locales/ru/account.json';
import ru from '../locales/ru/translation.json';
import { modulePaths } from '../config/paths';
import type { RouteHandle } from './route-handle';

// The server titles the account frame of a module's own page `/account/<slug>` with the module's
// sidebar label (apps/api plugins/console.ts, accountFrame), before the console runs; the console
// then shows its route's title. They must be the same text, or the title changes as the page starts.
describe("the account frame's titles", () => {
  const russian: Record<string, string> = { ...ru, ...ruAccount };

  it("are each module page's own title, in Russian and in English", async () => {
    const { routes } = await import('./router');
    const framed = MODULE_SLUGS.filter((slug) => modulePaths[slug] === `/account/${slug}`);
    expect(framed).toContain('dashboard');
    for (const slug of framed) {
      const title = matchRoutes(routes, `/account/${slug}`)
        ?.map((match) => (match.route.handle as RouteHandle | undefined)?.title)
        .filter((key) => key !== undefined)
        .at(-1);
      expect(title, `/account/${slug} has a title`).toBeDefined();
      expect({ slug, en: title, ru: russian[title ?? ''] }).toEqual({ slug, ...MODULE_LABELS[slug] });
    }
  });
});
