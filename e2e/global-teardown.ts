import { existsSync, readFileSync, rmSync } from 'node:fs';
import { stopProcess } from '../test-support/server.mjs';

/** Stops the server global-setup.ts started (by its pid) and removes its temporary folder. */
export default async function globalTeardown() {
  const pid = Number(process.env.E2E_SERVER_PID);
  if (!pid) return;
  await stopProcess(pid);
  const log = process.env.E2E_SERVER_LOG;
  if (log && existsSync(log)) {
    const output = readFileSync(log, 'utf8').trim();
    // LOG_LEVEL=warn: anything here is a warning or an error worth a look.
    if (output)
      console.log(`e2e: the server logged (last 40 lines):\n${output.split('\n').slice(-40).join('\n')}`);
  }
  const dir = process.env.E2E_SERVER_DIR;
  if (dir && process.env.E2E_KEEP_TMP !== '1') rmSync(dir, { recursive: true, force: true });
}
