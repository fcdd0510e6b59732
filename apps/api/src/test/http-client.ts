import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** Addresses from {@link nextTestIp}: 10.64.0.1 to 10.127.255.254, apart from those tests fix. */
const TEST_IP_FIRST_OCTET2 = 64;
const TEST_IP_LAST_OCTET2 = 127;
const HOSTS_PER_BLOCK = 254;
let testIpCounter = 0;

/**
 * A client address of its own for a visitor, as the anonymous endpoints are limited per IP: a
 * private (10.64.0.0/10), non-loopback address, different on every call in this process. The
 * range is kept clear of the fixed addresses tests use themselves (10.1.x, 10.3.x, 10.9.x).
 */
export function nextTestIp(): string {
  const n = testIpCounter;
  testIpCounter += 1;
  const block = Math.floor(n / HOSTS_PER_BLOCK);
  const octet2 = TEST_IP_FIRST_OCTET2 + Math.floor(block / 256);
  if (octet2 > TEST_IP_LAST_OCTET2) throw new Error('nextTestIp: the test address range is used up');
  return `10.${octet2}.${block % 256}.${(n % HOSTS_PER_BLOCK) + 1}`;
}

export interface TestClientOptions {
  /** The client address (`remoteAddress`) of every request that names none; else inject's 127.0.0.1. */
  ip?: string;
}

/**
 * A browser-like client over `app.inject`: keeps cookies, and echoes `XSRF-TOKEN` in
 * `X-XSRF-TOKEN` as axios does for a Sanctum SPA.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  sendXsrf = true;
  /** The fixed client address, if one was given. */
  readonly ip: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    options: TestClientOptions = {},
  ) {
    this.ip = options.ip;
  }

  /** A signed-out browser that has fetched its CSRF cookie (`GET /sanctum/csrf-cookie`) already. */
  static async visitor(app: FastifyInstance, options: TestClientOptions = {}): Promise<TestClient> {
    const client = new TestClient(app, options);
    await client.get('/sanctum/csrf-cookie');
    return client;
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      'accept-language': 'en',
      ...(options.headers as Record<string, string>),
    };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (this.sendXsrf && xsrf && !('x-xsrf-token' in headers))
      headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    const remoteAddress = options.remoteAddress ?? this.ip;
    const response = await this.app.inject({
      ...options,
      headers,
      ...(remoteAddress === undefined ? {} : { remoteAddress }),
    });
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired =
        cookie.value === '' ||
        (cookie.expires && cookie.expires.getTime() <= Date.now()) ||
        cookie.maxAge === 0;
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  }

  put(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'PUT', url, payload: payload as InjectOptions['payload'], headers });
  }

  delete(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'DELETE', url, headers });
  }

  /** `GET /sanctum/csrf-cookie`, then `POST /api/login`; throws unless the login succeeds. */
  async login(email: string, password: string) {
    await this.get('/sanctum/csrf-cookie');
    const response = await this.post('/api/login', { email, password });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    return response;
  }
}
