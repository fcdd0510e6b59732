// Fault: the disk under the SQLite database fills up (docs/operations.md, "Faults"). Kontrol runs
// on SQLite on a 16 MB tmpfs of its own, with the embedded MQTT broker; devices send over HTTP and
// MQTT. The WAL is checkpointed and truncated (so the next write needs new space) and a file takes
// every byte left. While the disk is full: writes answer 503 with a readable `{message}` saying the
// disk is full, the HTTP ingest answers 503 without acknowledging, MQTT messages get no PUBACK,
// reads still answer and the process stays up. Once the file is removed, writes and the held
// messages succeed without a restart, and after a clean stop `PRAGMA integrity_check` says ok and
// every acknowledged sample is stored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { freePort, startServer } from '../../test-support/server.mjs';
import {
  alive,
  call,
  checks,
  describe,
  httpDevice,
  isClearError,
  mqttDevice,
  runScenario,
  seedOrganisation,
  within,
  ANSWER_WITHIN_MS,
  CYRILLIC,
} from './lib/common.mjs';
import { mountTmpfs } from './lib/tmpfs.mjs';
import { storedTimes } from './lib/sqlite.mjs';

const t = checks('disk-full');
/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    const disk = mountTmpfs(16);
    cleanups.push(() => disk.unmount());
    const file = join(disk.dir, 'kontrol.db');
    const mqttPort = await freePort();
    const server = await startServer({
      env: { DATABASE_URL: `sqlite:${file}`, MQTT_PORT: String(mqttPort) },
    });
    cleanups.push(() => server.stop());
    const fleet = await seedOrganisation(server, 2);
    const [overHttp, overMqtt] = fleet.devices;
    if (!overHttp || !overMqtt) throw new Error('two devices expected');
    const http = httpDevice(server.baseURL, overHttp);
    const device = await mqttDevice(`mqtt://127.0.0.1:${mqttPort}`, overMqtt, { protocolVersion: 5 });
    cleanups.push(() => device.end());

    const first = await http.sendNext(500);
    const mqttFirst = await within(device.publish(500), 10_000, false);
    t.check(
      'before the disk fills, samples are acknowledged over HTTP and MQTT',
      first.answer.status === 202 && mqttFirst,
      describe(first.answer),
    );

    // Every page written from now on needs new space: the WAL is emptied and truncated first.
    const outside = new Database(file);
    outside.pragma('busy_timeout = 5000');
    outside.pragma('wal_checkpoint(TRUNCATE)');
    outside.close();
    const filled = disk.fill();
    t.note(`disk filled: ${(filled / 1024 / 1024).toFixed(1)} MB written, 0 bytes left`);

    const refused = await http.sendNext(500, ANSWER_WITHIN_MS);
    t.check(
      'the HTTP ingest refuses with 503 and a {message}, acknowledging nothing',
      refused.answer.status === 503 &&
        isClearError(refused.answer) &&
        Boolean(refused.answer.headers?.get('retry-after')),
      describe(refused.answer),
    );
    const writeRu = await fleet.api('/api/messages', {
      method: 'POST',
      body: { text: 'written on a full disk' },
      timeoutMs: ANSWER_WITHIN_MS,
    });
    t.check(
      'a signed-in write answers 503 with a Russian {message} saying the disk is full',
      writeRu.status === 503 &&
        isClearError(writeRu) &&
        CYRILLIC.test(writeRu.body.message) &&
        /мест/i.test(writeRu.body.message),
      describe(writeRu),
    );
    const writeEn = await fleet.api('/api/messages', {
      method: 'POST',
      body: { text: 'written on a full disk' },
      locale: 'en',
      timeoutMs: ANSWER_WITHIN_MS,
    });
    t.check(
      'and in English',
      writeEn.status === 503 && isClearError(writeEn) && /space|full/i.test(writeEn.body.message),
      describe(writeEn),
    );
    const read = await fleet.api('/api/devices/', { timeoutMs: ANSWER_WITHIN_MS });
    t.check('reads still answer (200)', read.status === 200, describe(read));
    const ready = await call(`${server.baseURL}/readyz`, { timeoutMs: ANSWER_WITHIN_MS });
    t.note(`/readyz answers ${ready.status} while the disk is full (the database reads)`);

    const held = device.publish(200);
    await sleep(2_000);
    t.check('no PUBACK for an MQTT message that could not be stored', device.acknowledged.size === 500);
    t.check('Kontrol is still running', alive(server.pid));

    // Space again.
    disk.free();
    t.note('filler removed');
    const { answer: resent } = await http.resend(refused.batch);
    const after = await http.sendNext(500);
    t.check(
      'the HTTP ingest acknowledges again (the refused message resent, then new samples)',
      resent.status === 202 && after.answer.status === 202,
      `${describe(resent)}; ${describe(after.answer)}`,
    );
    t.check(
      'the MQTT message held while the disk was full is acknowledged',
      await within(held, 15_000, false),
    );
    const write = await fleet.api('/api/messages', {
      method: 'POST',
      body: { text: 'after the disk was freed' },
    });
    t.check('writes work again (201)', write.status === 201, describe(write));
    t.check('Kontrol is the same process', alive(server.pid));

    await server.stop({ keepFiles: true });
    const db = new Database(file, { readonly: true });
    try {
      const integrity = db.pragma('integrity_check', { simple: true });
      t.check('PRAGMA integrity_check says ok', integrity === 'ok', String(integrity));
      const lost = [
        [overHttp.id, http.acknowledged],
        [overMqtt.id, new Set(device.acknowledged.keys())],
      ].reduce((sum, [id, acked]) => {
        const stored = storedTimes(db, /** @type {number} */ (id));
        return sum + [.../** @type {Set<number>} */ (acked)].filter((ts) => !stored.has(ts)).length;
      }, 0);
      t.check(
        'every acknowledged sample is stored',
        lost === 0,
        `${http.acknowledged.size + device.acknowledged.size} acknowledged, ${lost} missing`,
      );
      const ghosts = db
        .prepare(`select count(*) as n from support_messages where text = 'written on a full disk'`)
        .get();
      t.check('the refused writes left nothing behind', /** @type {{n: number}} */ (ghosts).n === 0);
    } finally {
      db.close();
    }
    const log = readFileSync(server.logFile, 'utf8');
    t.check(
      'the server log says the disk is full and shows no unhandled error',
      /disk is full|SQLITE_FULL/.test(log) && !/uncaught|unhandled rejection/i.test(log),
    );
  },
  cleanups,
);
