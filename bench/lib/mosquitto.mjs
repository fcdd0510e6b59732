// A Mosquitto 2 of the script's own, as production runs it for Kontrol (docs/deployment.md): on a
// free port of 127.0.0.1 (1883 is the machine's broker), persistence on, the dynamic-security
// plugin with one admin account (the account Kontrol's MQTT_URL names), anonymous clients refused.
// The JavaScript twin of apps/api/src/test/mosquitto.ts, for the scripts under bench/ and scripts/.
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
 * @typedef {object} RunningMosquitto
 * @property {number} port
 * @property {string} url   `mqtt://kontrol-admin:<password>@127.0.0.1:<port>`
 * @property {() => Promise<void>} restart  stops the broker (SIGTERM: it saves its sessions) and starts it again on the same port and files
 * @property {() => Promise<void>} stop     stops it and removes its files
 */

/** @returns {Promise<RunningMosquitto>} */
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
      'max_inflight_messages 100',
      `log_dest file ${dir}/mosquitto.log`,
      'log_type error',
      'log_type warning',
    ].join('\n'),
  );

  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const start = async () => {
    const started = spawn(MOSQUITTO, ['-c', config], { stdio: 'ignore' });
    child = started;
    await waitForPort(port, { exited: () => started.exitCode !== null, what: 'mosquitto' });
  };
  const halt = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://kontrol-admin:${password}@127.0.0.1:${port}`,
    restart: async () => {
      await halt();
      await start();
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
