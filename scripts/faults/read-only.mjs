// Fault: the file system under the SQLite database becomes read-only (docs/operations.md,
// "Faults"). Linux refuses `mount -o remount,ro` while a process has a file open for writing
// (EBUSY: Kontrol holds the database), so the fault is played as it happens to a machine: Kontrol
// is killed with SIGKILL while devices send, its tmpfs is remounted read-only, and Kontrol is
// started on it. It must start and serve reads; writes answer 503 with a readable `{message}`
// saying the storage is read-only, the HTTP ingest answers 503 without acknowledging, MQTT gets no
// PUBACK. Kontrol is then stopped, the file system remounted read-write and Kontrol started again:
// writes and ingest work, `PRAGMA integrity_check` says ok and every acknowledged sample is
// stored. Finally, a database that was closed cleanly (no `-wal`/`-shm` files beside it) on a
// read-only file system cannot be opened at all: Kontrol must exit at once saying so.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ROOT, freePort, startServer } from '../../test-support/server.mjs';
import {
  alive,
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
import { storedTimes } from './lib/sqlite.mjs';
import { mountTmpfs } from './lib/tmpfs.mjs';

const t = checks('read-only');
/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    const disk = mountTmpfs(16);
    cleanups.push(() => disk.unmount());
    const file = join(disk.dir, 'kontrol.db');
    const databaseUrl = `sqlite:${file}`;
    const mqttPort = await freePort();
    const first = await startServer({ env: { DATABASE_URL: databaseUrl, MQTT_PORT: String(mqttPort) } });
    cleanups.push(() => first.stop());
    const fleet = await seedOrganisation(first, 2);
    const [overHttp, overMqtt] = fleet.devices;
    if (!overHttp || !overMqtt) throw new Error('two devices expected');
    const http = httpDevice(first.baseURL, overHttp);
    for (let round = 0; round < 5; round += 1) await http.sendNext(200);

    try {
      disk.remount('ro');
      t.note('the kernel remounted the file system read-only under a running Kontrol');
      disk.remount('rw');
    } catch {
      t.note('the kernel refuses to remount read-only while Kontrol has the database open (EBUSY)');
    }

    // SIGKILL while samples are on their way: the WAL is left as it was.
    const inFlight = Array.from({ length: 5 }, () => http.sendNext(200));
    await sleep(5);
    t.note('killing Kontrol with SIGKILL (the "exited unexpectedly" line below is this)');
    process.kill(first.pid, 'SIGKILL');
    await Promise.allSettled(inFlight);
    disk.remount('ro');
    t.note(
      `Kontrol killed with ${http.acknowledged.size} samples acknowledged; file system remounted read-only`,
    );

    // Kontrol on the read-only file system.
    const brokerPort = await freePort();
    const readOnly = await startServer({ env: { DATABASE_URL: databaseUrl, MQTT_PORT: String(brokerPort) } });
    cleanups.push(() => readOnly.stop());
    t.check('Kontrol starts on the read-only database and /readyz answers 200 (reads work)', true);
    const session = { api: fleet.apiAt(readOnly.baseURL) };
    const read = await session.api('/api/devices/', { timeoutMs: ANSWER_WITHIN_MS });
    t.check('the signed-in session reads (200)', read.status === 200, describe(read));
    const writeRu = await session.api('/api/messages', {
      method: 'POST',
      body: { text: 'written on a read-only disk' },
      timeoutMs: ANSWER_WITHIN_MS,
    });
    t.check(
      'a write answers 503 with a Russian {message} saying the storage is read-only',
      writeRu.status === 503 &&
        isClearError(writeRu) &&
        CYRILLIC.test(writeRu.body.message) &&
        /только для чтения/i.test(writeRu.body.message),
      describe(writeRu),
    );
    const writeEn = await session.api('/api/messages', {
      method: 'POST',
      body: { text: 'written on a read-only disk' },
      locale: 'en',
      timeoutMs: ANSWER_WITHIN_MS,
    });
    t.check(
      'and in English',
      writeEn.status === 503 && isClearError(writeEn) && /read-only/i.test(writeEn.body.message),
      describe(writeEn),
    );
    http.moveTo(readOnly.baseURL);
    const refused = await http.sendNext(300, ANSWER_WITHIN_MS);
    t.check(
      'the HTTP ingest refuses with 503 and a {message}, acknowledging nothing',
      refused.answer.status === 503 &&
        isClearError(refused.answer) &&
        Boolean(refused.answer.headers?.get('retry-after')),
      describe(refused.answer),
    );
    const device = await mqttDevice(`mqtt://127.0.0.1:${brokerPort}`, overMqtt, { protocolVersion: 4 });
    cleanups.push(() => device.end());
    const held = device.publish(200);
    await sleep(2_000);
    t.check('no PUBACK for an MQTT message that could not be stored', device.acknowledged.size === 0);
    t.check('Kontrol is still running', alive(readOnly.pid));
    await device.end();
    await readOnly.stop({ keepFiles: true });
    const roLog = readFileSync(readOnly.logFile, 'utf8');
    t.check(
      'its log says the storage is read-only and shows no unhandled error',
      /read-only|SQLITE_READONLY/.test(roLog) && !/uncaught|unhandled rejection/i.test(roLog),
    );

    // Back to read-write: everything works again.
    disk.remount('rw');
    const again = await startServer({ env: { DATABASE_URL: databaseUrl, MQTT_PORT: String(brokerPort) } });
    cleanups.push(() => again.stop());
    http.moveTo(again.baseURL);
    const { answer: resent } = await http.resend(refused.batch);
    t.check(
      'after remounting read-write, the refused samples are accepted (202)',
      resent.status === 202,
      describe(resent),
    );
    const deviceAgain = await mqttDevice(`mqtt://127.0.0.1:${brokerPort}`, overMqtt, {
      protocolVersion: 4,
      from: device.next,
    });
    cleanups.push(() => deviceAgain.end());
    const mqttAgain = await within(deviceAgain.publish(200), 10_000, false);
    t.check('MQTT messages are acknowledged again', mqttAgain);
    void held; // that connection is gone: the device sends its samples on its next one
    const write = await fleet.apiAt(again.baseURL)('/api/messages', {
      method: 'POST',
      body: { text: 'after remounting read-write' },
    });
    t.check('writes work again (201)', write.status === 201, describe(write));
    await deviceAgain.end();
    await again.stop({ keepFiles: true });

    // Read-write, so that closing it checkpoints and removes the -wal and -shm files, as a clean stop does.
    const db = new Database(file);
    try {
      const integrity = db.pragma('integrity_check', { simple: true });
      t.check('PRAGMA integrity_check says ok', integrity === 'ok', String(integrity));
      const stored = storedTimes(db, overHttp.id);
      const acked = [...http.acknowledged];
      const lost = acked.filter((ts) => !stored.has(ts)).length;
      const mqttStored = storedTimes(db, overMqtt.id);
      const mqttLost = [...deviceAgain.acknowledged.keys()].filter((ts) => !mqttStored.has(ts)).length;
      t.check(
        'every acknowledged sample is stored (those acknowledged before the SIGKILL included)',
        lost + mqttLost === 0,
        `${acked.length + deviceAgain.acknowledged.size} acknowledged, ${lost + mqttLost} missing`,
      );
      const ghosts = /** @type {{ n: number }} */ (
        db
          .prepare(`select count(*) as n from support_messages where text = 'written on a read-only disk'`)
          .get()
      );
      t.check('the refused writes left nothing behind', ghosts.n === 0);
    } finally {
      db.close();
    }

    // A cleanly closed database on a read-only file system: SQLite cannot even read it.
    disk.remount('ro');
    const started = Date.now();
    const run = spawnSync(process.execPath, [join(ROOT, 'apps/api/dist/server.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: '0',
        MQTT_PORT: 'off',
        DEMO: '0',
        LOG_LEVEL: 'warn',
        RESTART_ON_CRASH: '0',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    t.check(
      'on a cleanly closed database, Kontrol exits at once with a message naming the read-only folder',
      run.status === 1 &&
        Date.now() - started < 15_000 &&
        /read-only/i.test(output) &&
        output.includes(disk.dir),
      `exit ${run.status}${run.signal ? ` (${run.signal})` : ''}: ${output.trim().split('\n').slice(0, 2).join(' / ').slice(0, 300)}`,
    );
    disk.remount('rw');
  },
  cleanups,
);
