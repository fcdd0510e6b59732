import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { DatabaseHandle } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics (docs/deployment.md, "Monitoring"). Each process keeps its own registry; the
 * metrics are served on a port of their own (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 by
 * default), never on the public port, so they are not behind sessions and the load balancer does
 * not expose them. Under node:cluster the primary serves the sum of its own and its workers'.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;

  constructor(readonly role: 'api' | 'gateway') {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry, prefix: 'kontrol_' });
    this.requests = new Counter({
      name: 'kontrol_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'kontrol_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  /** Counts every answer of `app` by its route pattern (never the raw URL: ids would explode the series). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      this.durations.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      done();
    });
  }

  /** The PostgreSQL pool (SQLite has one connection and nothing to watch). */
  watchDatabase(database: DatabaseHandle): void {
    if (database.driver.dialect !== 'postgres') return;
    const { pool } = database.driver;
    new Gauge({
      name: 'kontrol_db_pool_connections',
      help: 'PostgreSQL pool connections, by state: total, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  /**
   * Serves `GET /metrics` on `address` (METRICS_HOST:METRICS_PORT). In a cluster's primary, the
   * answer sums the workers' registries (asked over the cluster's channel) with its own.
   */
  async serve(address: { host: string; port: number }): Promise<Server> {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('Not found: the metrics are at /metrics\n');
        return;
      }
      this.render().then(
        (text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (error: unknown) =>
          response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => resolve());
    });
    return server;
  }

  private async render(): Promise<string> {
    if (!cluster.isPrimary || Object.keys(cluster.workers ?? {}).length === 0) return this.registry.metrics();
    const own = await this.registry.getMetricsAsJSON();
    const workers = await askWorkers();
    return AggregatorRegistry.aggregate([own, ...workers]).metrics();
  }

  /** In a cluster worker: answers the primary's requests for this registry. */
  answerPrimary(): void {
    if (!cluster.isWorker) return;
    process.on('message', (message: { type?: string; id?: number }) => {
      if (message.type !== METRICS_REQUEST) return;
      void this.registry.getMetricsAsJSON().then((metrics) => {
        process.send?.({ type: METRICS_RESPONSE, id: message.id, metrics });
      });
    });
  }
}

const METRICS_REQUEST = 'kontrol:metrics-request';
const METRICS_RESPONSE = 'kontrol:metrics-response';
const WORKER_ANSWER_MS = 3_000;
let nextRequest = 0;

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Every connected worker's registry; a worker that does not answer in 3 s is left out. */
async function askWorkers(): Promise<MetricsJson[]> {
  const id = (nextRequest += 1);
  const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
  const answers = workers.map(
    (worker) =>
      new Promise<MetricsJson | undefined>((resolve) => {
        const timer = setTimeout(() => finish(undefined), WORKER_ANSWER_MS);
        const listener = (message: { type?: string; id?: number; metrics?: MetricsJson }) => {
          if (message.type === METRICS_RESPONSE && message.id === id) finish(message.metrics);
        };
        function finish(metrics: MetricsJson | undefined) {
          clearTimeout(timer);
          worker?.off('message', listener);
          resolve(metrics);
        }
        worker?.on('message', listener);
        worker?.send({ type: METRICS_REQUEST, id });
      }),
  );
  return (await Promise.all(answers)).filter((metrics): metrics is MetricsJson => metrics !== undefined);
}
