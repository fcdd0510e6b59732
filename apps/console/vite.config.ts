import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/** Where `npm run dev` forwards API calls: the API as `npm start` runs it (PORT 8080). */
const API_ORIGIN = 'http://127.0.0.1:8080';
const proxy = { '/api': API_ORIGIN, '/sanctum': API_ORIGIN };

export default defineConfig({
  plugins: [react()],
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
    // dist/.vite/manifest.json: which files each chunk needs. The API reads it to preload the
    // account frame's and the requested page's chunks for a signed-in visitor (apps/api
    // plugins/console.ts); it is never served (a dot folder).
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
