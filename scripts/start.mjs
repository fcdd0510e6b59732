// `npm start`: build what is missing or out of date, then run the server (which migrates the
// database, seeds the demo on an empty one and serves the API and the console).
import { join } from 'node:path';
import { ROOT, buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
await import(join(ROOT, 'apps/api/dist/server.js'));
