import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest, type DatabaseHandle } from '@kontrol/db';
import { Gateway, PortInUseError, gatewayMqtt, watchGateway } from '@kontrol/gateway';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { buildAllInOneApp } from './all-in-one/app.js';
import {
  type Config,
  ConfigError,
  installCrashLogging,
  listenOrExit,
  loadConfig,
  Metrics,
} from '@kontrol/server-kit';
import type { DemoFleet } from './all-in-one/demo-fleet.js';
import { DEMO_LOGIN, seedDemoIfEmpty } from './modules/demo/demo.seed.js';
import { postDailyCharges } from './modules/billing/ledger.service.js';
import { purgeExpired } from './modules/maintenance.js';

const MAINTENANCE_INTERVAL_MS = 10 * 60_000;
const SHUTDOWN_GRACE_MS = 10_000;
const WORKER_RESTART_DELAY_MS = 1_000;
/** The supervised server's restarts back off up to this long while it keeps dying soon after start. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A server that ran this long before dying is restarted after WORKER_RESTART_DELAY_MS again. */
const STABLE_UPTIME_MS = 60_000;
/** Set by {@link superviseOne} on its child: this process is the whole server, not an API-only worker. */
const WHOLE_SERVER_ENV = 'KONTROL_WHOLE_SERVER';

/**
 * `npm start`: migrate, seed the demo on an empty database, serve the API and the console, and
 * shut down gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight requests, close the
 * database). By default this process supervises one child that does all that and starts it again
 * when it dies (RESTART_ON_CRASH). With API_WORKERS above 1 this process prepares the database,
 * then starts that many API processes sharing the port (node:cluster) and keeps them running.
 */
async function main() {
  installCrashLogging(cluster.isPrimary ? 'primary' : 'worker');
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) return supervise(config);
  if (cluster.isPrimary && config.restartOnCrash) return superviseOne(config);
  // The whole server: unsupervised, or the child of superviseOne; else an API-only worker of supervise.
  return serve(config, { whole: cluster.isPrimary || process.env[WHOLE_SERVER_ENV] === '1' });
}

/** Migrations and the demo seed, once, before any API process serves. */
async function prepareDatabase(config: Config, database: DatabaseHandle, log: pino.Logger) {
  const { applied } = await migrateToLatest(database.db);
  log.info({ database: database.safeUrl, applied }, 'database ready');
  if (config.demo && (await seedDemoIfEmpty(database.db))) {
    log.info(
      `demo organisation created — sign in at ${config.appUrl}/auth/login as ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
    );
  }
}

/**
 * The cluster's primary: prepares the database, starts `config.workers` API processes and starts a
 * new one when one dies. If one fails before it ever listened (a port in use, a bad setting), the
 * others are stopped and the primary exits with 1 rather than restart it forever. SIGTERM/SIGINT
 * are passed on; the primary exits when the last worker has.
 */
async function supervise(config: Config) {
  const log = pino({ level: config.logLevel });
  const database = createDb(config.databaseUrl, {
    poolMax: config.databasePoolMax,
    poolIdleMs: config.databasePoolIdleMs,
  });
  let gateway: Gateway;
  try {
    await prepareDatabase(config, database, log);
    // The MQTT side runs here, once; every API process serves the HTTP ingest.
    gateway = await Gateway.start({
      database,
      log,
      rawRetentionDays: config.telemetryRawDays,
      mqtt: gatewayMqtt(config, true),
      noDataEveryMs: config.rulesNoDataCheckSeconds * 1000,
      limits: config.deviceLimits,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  // The primary answers for the whole cluster: its own gateway and pool, and the workers' requests.
  if (config.metrics) {
    const metrics = new Metrics('api');
    watchGateway(metrics.registry, gateway);
    metrics.watchDatabase(database);
    const server = await metrics.serve(config.metrics);
    server.unref();
    log.info(`metrics at http://${config.metrics.host}:${config.metrics.port}/metrics`);
  }
  let stopping = false;
  let exitCode = 0;
  let demo: Promise<DemoFleet | undefined> | undefined;
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    void Promise.resolve(demo)
      .then((fleet) => fleet?.stop())
      .then(() => gateway.close())
      .then(() => database.close())
      .finally(() => process.exit(exitCode));
  };
  const stopAll = () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    // None running (one died and its replacement is not due yet): nothing to wait for.
    if (workers.length === 0) return exit();
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  // Workers run this file, whatever started the primary (scripts/start.mjs builds first).
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
  const listening = new Set<number>();
  const start = () => {
    if (stopping) return; // a replacement that fell due after SIGTERM
    const worker = cluster.fork();
    worker.once('listening', () => {
      listening.add(worker.id);
      // The demo's devices start once the API answers (their history goes over HTTP).
      if (config.demoSimulator && !demo && !stopping) demo = runDemoFleet(config, database.db, gateway, log);
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    const everListened = listening.delete(worker.id);
    if (!stopping && !everListened) {
      log.fatal(`API process ${worker.process.pid} exited before it listened (code ${code}); stopping`);
      exitCode = 1;
      stopAll();
    } else if (!stopping) {
      log.error(`API process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
      setTimeout(start, WORKER_RESTART_DELAY_MS);
    }
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) exit();
  });
  // Node drops a worker from `cluster.workers` once it has both exited and disconnected, in either
  // order: when its channel closes after its exit, only this event sees the last one go.
  cluster.on('disconnect', () => {
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) exit();
  });
  process.once('SIGTERM', stopAll);
  process.once('SIGINT', stopAll);
  for (let i = 0; i < config.workers; i += 1) start();
  log.info(`Kontrol is starting ${config.workers} API processes at ${config.appUrl}`);
}

/**
 * The default `npm start` (RESTART_ON_CRASH): this process only supervises. Its one child is the
 * whole server (migrations, API, console, embedded broker, demo); when it dies it is started again
 * (after 1 s, backing off to 30 s while it keeps dying within a minute of its start), and the
 * broker's devices reconnect to the new one. A child that fails before it ever listened (a port in
 * use, a database it cannot open) is not restarted: the supervisor exits with 1. SIGTERM/SIGINT
 * are passed on; the supervisor exits with the child. If the supervisor itself is killed, the
 * child's IPC channel closes and Node ends it.
 */
function superviseOne(config: Config) {
  const log = pino({ level: config.logLevel });
  // The child accepts its own connections: no round trip through this process per connection.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
  let stopping = false;
  let delay = WORKER_RESTART_DELAY_MS;
  let child: ReturnType<typeof cluster.fork> | undefined;
  let startedAt = 0;
  let listened = false;
  const start = () => {
    if (stopping) return;
    listened = false;
    startedAt = Date.now();
    child = cluster.fork({ [WHOLE_SERVER_ENV]: '1' });
    child.once('listening', () => {
      listened = true;
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    child = undefined;
    if (stopping) process.exit(code ?? 0);
    if (!listened) {
      log.fatal(
        `the server process ${worker.process.pid} exited before it listened (code ${code}); stopping`,
      );
      process.exit(1);
    }
    delay =
      Date.now() - startedAt >= STABLE_UPTIME_MS
        ? WORKER_RESTART_DELAY_MS
        : Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    log.error(
      `the server process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`,
    );
    setTimeout(start, delay);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    if (child) child.process.kill(signal);
    else process.exit(0);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  start();
}

/**
 * One server process: builds the app, listens, runs maintenance, shuts down gracefully. `whole`:
 * it also prepares the database, runs the MQTT side and the demo's devices, and serves its own
 * metrics; an API-only worker of {@link supervise} leaves those to the primary.
 */
async function serve(config: Config, options: { whole: boolean }) {
  const database = createDb(config.databaseUrl, {
    poolMax: config.databasePoolMax,
    poolIdleMs: config.databasePoolIdleMs,
  });
  if (options.whole) await prepareDatabase(config, database, pino({ level: config.logLevel }));
  const metrics = config.metrics ? new Metrics('api') : undefined;
  const { app, gateway } = await buildAllInOneApp({ config, database, runsMqtt: options.whole, metrics });
  // An API-only worker's metrics are served by the primary; the whole server serves its own.
  if (!options.whole) metrics?.answerPrimary();
  const metricsServer =
    metrics && config.metrics && options.whole ? await metrics.serve(config.metrics) : undefined;
  metricsServer?.unref();
  let demo: DemoFleet | undefined;

  app.mail.start();
  // Every API process starts the bot; the one holding its lease polls and sends (docs/integrations.md).
  app.telegram.start();
  app.notifier.start();
  const maintenance = setInterval(() => {
    purgeExpired(app).catch((error: unknown) => app.log.warn({ err: error }, 'maintenance failed'));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  // Every process looks for billing days to charge; the ledger's references make it once (docs/billing.md).
  const chargeDays = () =>
    postDailyCharges(app.db, { dailyRateKopecks: config.billing.dailyRateKopecks })
      .then((posted) => {
        if (posted > 0) app.log.info({ posted }, 'billing: daily charges posted');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'billing: daily charges failed'));
  const charges =
    config.billing.chargeCheckMinutes > 0
      ? setInterval(() => void chargeDays(), config.billing.chargeCheckMinutes * 60_000)
      : undefined;
  charges?.unref();
  if (charges) void chargeDays();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(maintenance);
    clearInterval(charges);
    // Requests in flight get a grace period; a client that leaves its connection open (a body it
    // never reads) is then cut off, so shutdown always completes.
    const grace = setTimeout(() => {
      app.log.warn(`connections still open after ${SHUTDOWN_GRACE_MS / 1000} s; closing them`);
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    grace.unref();
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    await demo?.stop();
    metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await listenOrExit(app, config, () => database.close());
  if (options.whole) app.log.info(`Kontrol is running at ${config.appUrl}`);
  if (options.whole && config.demoSimulator && !closing)
    demo = await runDemoFleet(config, database.db, gateway, app.log);
}

/** The demo's simulated devices (all-in-one/demo-fleet.ts); a failure is logged, never fatal. */
async function runDemoFleet(
  config: Config,
  db: DatabaseHandle['db'],
  gateway: Gateway,
  log: pino.Logger | FastifyBaseLogger,
): Promise<DemoFleet | undefined> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  try {
    // Loaded here: the simulator and its MQTT client stay out of the memory of a server without the demo.
    const { startDemoFleet } = await import('./all-in-one/demo-fleet.js');
    return await startDemoFleet({
      db,
      gateway,
      accounts: gateway.accounts,
      httpUrl: `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`,
      log,
    });
  } catch (error) {
    log.warn({ err: error }, 'demo: the simulated devices could not start');
    return undefined;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PortInUseError) console.error(error.message);
  else console.error('Kontrol failed to start:', error);
  process.exit(1);
});
