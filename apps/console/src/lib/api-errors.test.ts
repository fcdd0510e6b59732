import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../test/server';
import { apiClient } from './api-client';
import { endsSession, toApiFailure } from './api-errors';

async function failureOf(respond: () => Response) {
  server.use(http.get('/api/probe', respond));
  const error = await apiClient.get('/probe').then(
    () => undefined,
    (e: unknown) => e,
  );
  return { failure: toApiFailure(error), endsSession: endsSession(error) };
}

describe('the error catalogue (docs/contract.md, "Error catalogue")', () => {
  it('a network failure is a connection error', async () => {
    expect((await failureOf(() => HttpResponse.error())).failure).toEqual({ kind: 'connection' });
  });

  it("an answer that is not the API's (a proxy page) is a connection error", async () => {
    const { failure } = await failureOf(() => new HttpResponse('<html>Bad gateway</html>', { status: 502 }));
    expect(failure).toEqual({ kind: 'connection' });
  });

  it('a 422 carries its field errors', async () => {
    const body = {
      message: 'Проверьте введённые данные.',
      errors: { email: ['Введите корректный e-mail.'] },
    };
    const { failure } = await failureOf(() => HttpResponse.json(body, { status: 422 }));
    expect(failure).toEqual({ kind: 'validation', ...body });
  });

  it("any other non-2xx shows the server's message", async () => {
    const { failure } = await failureOf(() =>
      HttpResponse.json({ message: 'Слишком много запросов.' }, { status: 429 }),
    );
    expect(failure).toEqual({ kind: 'http', status: 429, message: 'Слишком много запросов.' });
  });

  it.each([
    [401, true],
    [419, true],
    [403, false],
    [500, false],
  ])('status %i ends the session: %s', async (status, ends) => {
    expect((await failureOf(() => HttpResponse.json({ message: 'x' }, { status }))).endsSession).toBe(ends);
  });

  it('every request sends cookies, the XSRF header and the interface language, with no timeout', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D';
    let headers: Headers | undefined;
    let readHeaders: Headers | undefined;
    server.use(
      http.post('/api/probe', ({ request }) => {
        headers = request.headers;
        return HttpResponse.json({});
      }),
      http.get('/api/probe', ({ request }) => {
        readHeaders = request.headers;
        return HttpResponse.json({});
      }),
    );
    await apiClient.post('/probe', {});
    expect(headers?.get('x-xsrf-token')).toBe('abc=');
    // A read changes nothing: the API checks no token on it, so none is sent.
    await apiClient.get('/probe');
    expect(readHeaders?.get('accept-language')).toBe('ru');
    expect(readHeaders?.has('x-xsrf-token')).toBe(false);
    expect(headers?.get('accept-language')).toBe('ru');
    expect(apiClient.defaults.withCredentials).toBe(true);
    expect(apiClient.defaults.timeout).toBe(0);
    expect(apiClient.defaults.baseURL).toBe('/api');
  });
});
