// A PostgreSQL 15 cluster of the fault suite's own (never the machine's on 5432): initdb into a
// temporary folder as the `postgres` OS user (initdb refuses root), listening on a free port on
// 127.0.0.1 with its unix socket in that folder, trust authentication. It can be stopped (as a
// crash: `-m immediate`, or cleanly) and started again on the same port and data.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../test-support/server.mjs';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export const postgresAvailable = () =>
  existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));

/**
 * Runs a PostgreSQL binary as the `postgres` user when we are root (runuser), else as ourselves.
 * @param {string} binary
 * @param {string[]} args
 */
function asPostgres(binary, args) {
  const root = process.getuid?.() === 0;
  const [command, argv] = root
    ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, binary), ...args]]
    : [join(PG_BIN, binary), args];
  return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * @typedef {object} PrivatePostgres
 * @property {number} port
 * @property {string} url    `postgres://postgres@127.0.0.1:<port>/kontrol`
 * @property {(mode?: 'immediate' | 'fast') => void} stop  stops the server (immediate: as a crash)
 * @property {() => void} start  starts it again on the same port and data, waits until it accepts
 * @property {() => void} freeze SIGSTOP to the server and its backends: it accepts connections and never answers
 * @property {() => void} thaw   SIGCONT to the processes {@link PrivatePostgres.freeze} stopped
 * @property {() => Promise<void>} destroy stops it (if running) and removes its folder
 * @property {() => string} log  the server's log so far
 */

/**
 * Makes and starts the cluster with a `kontrol` database.
 * @returns {Promise<PrivatePostgres>}
 */
export async function startPostgres() {
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-faults-pg-'));
  chmodSync(dir, 0o777); // the postgres user writes its data, socket and log here
  const data = join(dir, 'data');
  const socket = join(dir, 'socket');
  mkdirSync(socket);
  chmodSync(socket, 0o777);
  const logFile = join(dir, 'postgres.log');
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${socket}`,
    // A test cluster: durability of the cluster itself against power loss is not what is tested.
    '-c fsync=off',
    '-c shared_buffers=32MB',
    '-c max_connections=50',
  ].join(' ');
  const start = () => {
    asPostgres('pg_ctl', ['-D', data, '-l', logFile, '-o', options, '-w', '-t', '30', 'start']);
  };
  let running = false;
  /** @type {number[]} */
  let frozen = [];
  start();
  running = true;
  asPostgres('psql', ['-h', socket, '-p', String(port), '-U', 'postgres', '-qc', 'create database kontrol']);
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/kontrol`,
    stop(mode = 'immediate') {
      asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    freeze() {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      let children = [];
      try {
        children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .map(Number);
      } catch {
        // no backend
      }
      frozen = [postmaster, ...children].filter((pid) => pid > 0);
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // gone
        }
      }
      frozen = [];
    },
    async destroy() {
      this.thaw();
      if (running) {
        try {
          asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
        } catch {
          // already gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}
