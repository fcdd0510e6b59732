import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * A browser-like client over `app.inject`: keeps cookies, and echoes `XSRF-TOKEN` in
 * `X-XSRF-TOKEN` as axios does for a Sanctum SPA.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  sendXsrf = true;

  constructor(private readonly app: FastifyInstance) {}

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
    const response = await this.app.inject({ ...options, headers });
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
