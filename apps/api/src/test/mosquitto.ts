import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Mosquitto 2 and its dynamic-security plugin (packages mosquitto, mosquitto-clients). */
export const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_CTRL = '/usr/bin/mosquitto_ctrl';
const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export const mosquittoAvailable = () =>
  existsSync(MOSQUITTO) && existsSync(MOSQUITTO_CTRL) && existsSync(DYNSEC_PLUGIN);

export interface TestMosquitto {
  port: number;
  /** `mqtt://<admin>:<password>@127.0.0.1:<port>`: the account Kontrol uses (dynamic-security admin). */
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A Mosquitto 2 of the test's own: on a free port (1883 is the machine's broker), with
 * persistence and the dynamic-security plugin, its files in a temporary folder, and one admin
 * account made by `mosquitto_ctrl dynsec init`. Anonymous clients are refused.
 */
export async function startMosquitto(): Promise<TestMosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-mosquitto-'));
  chmodSync(dir, 0o777); // mosquitto started as root runs as the `mosquitto` user
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
      // As docs/deployment.md: a packet over 4 MB (the HTTP ingest's body limit) disconnects its client.
      'max_packet_size 4194304',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      // MOSQUITTO_TEST_LOG=1 shows everything the broker does, on the test's stderr.
      ...(process.env.MOSQUITTO_TEST_LOG === '1' ? ['log_type all'] : []),
    ].join('\n'),
  );
  let output = '';
  const child = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (process.env.MOSQUITTO_TEST_LOG === '1') process.stderr.write(chunk);
  });
  await waitForPort(port, child, () => output);
  return {
    port,
    url: `mqtt://kontrol-admin:${password}@127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
