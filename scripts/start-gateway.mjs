// `npm run start:gateway`: build the server if it is out of date, then run a gateway process of its
// own (apps/gateway/src/main.ts): devices' MQTT and HTTP apart from the API (docs/deployment.md).
import { join } from 'node:path';
import { ROOT, buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded({ console: false });
await import(join(ROOT, 'apps/gateway/dist/main.js'));
