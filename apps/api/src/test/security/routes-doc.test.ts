import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useAppWithRoutes, type RouteInfo } from './route-table.js';

/** The route index of the repository's documentation, written from the app's own route table. */
const ROUTES_DOC = new URL('../../../../../docs/routes.md', import.meta.url);

const HEADER = `# Routes

Every HTTP route of the server, from the route table of the app itself (the security suite's,
\`apps/api/src/test/security/route-table.ts\`), written by \`npm run docs:routes\`: the test suite fails
when this file is not current. Access is \`public\`, \`user\` (any signed-in user), \`device\` (a
device credential) or the modules that open it (any one of them; docs/people.md), and \`—\` for
the health probes, which answer before any session is read; **admin** marks the organisation's
administrators only. The folder is the one holding the file that registers the
route. The sandbox payment provider's pages exist only with \`PAYMENT_PROVIDER=sandbox\`
(docs/billing.md). \`/api/docs\` (the OpenAPI document and its viewer) is left out.

| method | path | access | admin | folder |
|---|---|---|---|---|
`;

/** Plain code-point order: the same on every Node.js version, whatever its ICU collation. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function render(routes: readonly RouteInfo[]): string {
  const rows = [...routes]
    .map((route) => ({ route, path: route.key.slice(route.method.length + 1) }))
    .sort((a, b) => byCodePoint(a.path, b.path) || byCodePoint(a.route.method, b.route.method))
    .map(({ route, path }) => {
      const access = route.access === undefined ? '—' : [route.access].flat().join(', ');
      return `| ${route.method} | \`${path}\` | ${access} | ${route.admin ? 'admin' : ''} | \`${route.folder}\` |`;
    });
  return `${HEADER}${rows.join('\n')}\n`;
}

describe('docs/routes.md', () => {
  const t = useAppWithRoutes();

  it('lists every route of the app with its access and the folder that owns it', () => {
    const text = render(t.routes);
    expect(t.routes.every((route) => route.folder !== '?')).toBe(true);
    if (process.env.UPDATE_ROUTES_DOC === '1') writeFileSync(ROUTES_DOC, text);
    expect(readFileSync(ROUTES_DOC, 'utf8'), 'docs/routes.md is not current: run `npm run docs:routes`').toBe(
      text,
    );
  });
});
