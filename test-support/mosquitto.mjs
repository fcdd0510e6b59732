// A Mosquitto 2 of the script's own, as production runs it for Kontrol (docs/deployment.md) and as
// apps/api/src/test/mosquitto.ts makes one for the API tests: a free port on 127.0.0.1 (1883 is the
// machine's broker), persistence, the dynamic-security plugin with one admin account (the account
// Kontrol's MQTT_URL names), anonymous clients refused, files in a temporary folder. It can be
// stopped and started again on the same port and files: a broker restart. Used by the scale-out
// test (bench/scale-out.mjs) and the fault suite (scripts/faults/broker-restart.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server.mjs';
import { waitForPort } from './wait-for-port.mjs';

const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_CTRL = '/usr/bin/mosquitto_ctrl';
const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export const mosquittoAvailable = () =>
  existsSync(MOSQUITTO) && existsSync(MOSQUITTO_CTRL) && existsSync(DYNSEC_PLUGIN);

/**
 * @typedef {object} PrivateMosquitto
 * @property {number} port
 * @property {string} url   `mqtt://kontrol-admin:<password>@127.0.0.1:<port>`: Kontrol's MQTT_URL
 * @property {() => Promise<void>} stop    SIGTERM (Mosquitto saves its persistence file), waits for the exit
 * @property {() => Promise<void>} start   starts it again on the same port and files
 * @property {() => Promise<void>} destroy stops it and removes its folder
 * @property {() => string} log  what it wrote on stderr (errors and warnings)
 */

/** @returns {Promise<PrivateMosquitto>} */
export async function startMosquitto() {
  if (!mosquittoAvailable())
    throw new Error(
      'Mosquitto 2 with its dynamic-security plugin is needed: apt-get install mosquitto mosquitto-clients',
    );
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-mosquitto-'));
  chmodSync(dir, 0o777); // started as root, mosquitto runs as the `mosquitto` user
  const port = await freePort();
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const dynsec = join(dir, 'dynamic-security.json');
  execFileSync(MOSQUITTO_CTRL, ['dynsec', 'init', dynsec, 'kontrol-admin', password], { stdio: 'ignore' });
  chmodSync(dynsec, 0o666);
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(
    config,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${dynsec}`,
      'persistence true',
      `persistence_location ${dir}/`,
      'max_queued_messages 100000',
      // As docs/deployment.md: a packet over 4 MB disconnects its client.
      'max_packet_size 4194304',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
    ].join('\n'),
  );

  let output = '';
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const start = async () => {
    const running = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = running;
    running.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
      output += chunk.toString();
    });
    await waitForPort(port, { exited: () => running.exitCode !== null, what: 'mosquitto' }).catch((error) => {
      throw new Error(`${error.message}\n${output}`);
    });
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://kontrol-admin:${password}@127.0.0.1:${port}`,
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
  };
}
