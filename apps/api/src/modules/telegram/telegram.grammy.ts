import { createRequire } from 'node:module';
import type * as Grammy from 'grammy';

const load = createRequire(import.meta.url);

/**
 * grammY, required by the first bot of the process rather than imported by every server start: a
 * server without TELEGRAM_BOT_TOKEN never needs its few MB of heap (its `node` export is this same
 * CommonJS module, so `GrammyError` is the class the API throws).
 */
export function grammy(): typeof Grammy {
  return load('grammy') as typeof Grammy;
}
