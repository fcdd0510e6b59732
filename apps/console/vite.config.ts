import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { CONSOLE_PRELOADS_FILE, type ConsolePreloads } from '@kontrol/contracts';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin, type Rollup } from 'vite';
import { ACCOUNT_FRAME_MODULE, ACCOUNT_PAGE_MODULES } from './src/app/account-pages';

/** Where `npm run dev` forwards API calls: the API as `npm start` runs it (PORT 8080). */
const API_ORIGIN = 'http://127.0.0.1:8080';
const proxy = { '/api': API_ORIGIN, '/sanctum': API_ORIGIN };

const CONSOLE_ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes CONSOLE_PRELOADS_FILE: for the account frame and each account page
 * (`src/app/account-pages.ts`), the chunks its module needs (its own and those it imports,
 * statically, in that order) and their stylesheets, less what the entry loads anyway. The server
 * reads it to preload them (apps/api plugins/console.ts); it never learns the console's file names.
 */
function consolePreloads(): Plugin {
  return {
    name: 'kontrol:console-preloads',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Rollup.OutputChunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const closure = (starts: string[]) => {
        const files = new Set<string>();
        const visit = (file: string) => {
          const chunk = chunks.get(file);
          if (files.has(file) || !chunk) return;
          files.add(file);
          for (const imported of chunk.imports) visit(imported);
        };
        for (const start of starts) visit(start);
        return files;
      };
      const stylesOf = (files: Set<string>) =>
        new Set([...files].flatMap((file) => [...(chunks.get(file)?.viteMetadata?.importedCss ?? [])]));
      const loaded = closure(
        [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
      );
      const loadedStyles = stylesOf(loaded);
      const needs = (module: string) => {
        const id = resolve(CONSOLE_ROOT, module);
        const own = [...chunks.values()].find((chunk) => chunk.facadeModuleId === id);
        if (!own)
          return this.error(`${module} (src/app/account-pages.ts) has no chunk of its own in the build`);
        const files = closure([own.fileName]);
        return {
          scripts: [...files].filter((file) => !loaded.has(file)),
          styles: [...stylesOf(files)].filter((file) => !loadedStyles.has(file)),
        };
      };
      const preloads: ConsolePreloads = {
        frame: needs(ACCOUNT_FRAME_MODULE),
        pages: Object.fromEntries(
          Object.entries(ACCOUNT_PAGE_MODULES).map(([segment, module]) => [segment, needs(module)]),
        ),
      };
      this.emitFile({
        type: 'asset',
        fileName: CONSOLE_PRELOADS_FILE,
        source: JSON.stringify(preloads, null, 2),
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), consolePreloads()],
  resolve: {
    // `source` first: workspace packages (@kontrol/contracts) resolve to their TypeScript source,
    // so the console never bundles a stale dist/ of a sibling package.
    conditions: ['source', ...defaultClientConditions],
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // dist/.vite/manifest.json: Vite's own list of chunks, which `first-bundle.test.ts` follows
    // from the entry. Never served (a dot folder).
    manifest: true,
    // Everything the entry imports statically is one chunk, as every page loads all of it first:
    // cut into chunks shared with the lazy pages it cost the login page 7 KB gzipped and nine
    // requests (docs/console-shell.md, "Styles and the first bundle").
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
    },
    // That chunk is about 620 KB raw (195 KB gzipped); `npm run bench:console` holds its budget.
    chunkSizeWarningLimit: 700,
  },
});
