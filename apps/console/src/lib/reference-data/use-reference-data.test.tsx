// @vitest-environment jsdom
// happy-dom fetches a preload link itself, as a browser does, and the fake server sees that request
// beside the page's own: these tests count each request to the server, so they run on jsdom.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { setLocale } from '../i18n';
import { queryClient } from '../query-client';
import { buildAclRole, buildDeviceType } from '../../test/entities';
import { buildAuthUser, server } from '../../test/server';
import { referenceKey } from './resources';
import {
  prefetchReferenceData,
  reloadReference,
  useLoadingFlag,
  useReferenceData,
  useReferenceList,
} from './use-reference-data';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);

afterEach(() => queryClient.clear());

/** Counts the requests each path receives and answers an empty list. */
function countRequests(paths: string[]) {
  const counts = Object.fromEntries(paths.map((path) => [path, 0]));
  server.use(
    ...paths.map((path) =>
      http.get(`/api${path}`, () => {
        counts[path] = (counts[path] ?? 0) + 1;
        return HttpResponse.json({ data: [] });
      }),
    ),
  );
  return counts;
}

/**
 * Resolves once mounted hooks watch every list named (any request they meant to make has started
 * then) and no request is under way any more.
 */
async function settled(...names: string[]) {
  const cache = queryClient.getQueryCache();
  await waitFor(() => {
    for (const name of names)
      expect(cache.find({ queryKey: referenceKey(name) })?.getObserversCount()).toBe(1);
  });
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
}

describe('reference data (docs/contract.md, "Product and areas", "States and transitions")', () => {
  it('loads only what the user’s modules allow, and is ready once every list answered or failed', async () => {
    const counts = countRequests(['/addresses/', '/rooms/']);
    const { result } = renderHook(() => useReferenceData(buildAuthUser(['addresses'])), { wrapper });
    expect(result.current.ready).toBe(false);
    await waitFor(() => expect(result.current.ready).toBe(true));
    // msw fails any other request: devices, recipes and roles were not asked for.
    expect(counts).toEqual({ '/addresses/': 1, '/rooms/': 1 });
  });

  it('keeps addresses and rooms cached: a load is skipped until a refresh is forced', async () => {
    const counts = countRequests(['/addresses/', '/rooms/']);
    const user = buildAuthUser(['addresses']);
    prefetchReferenceData(user);
    await waitFor(() => expect(queryClient.getQueryData(referenceKey('rooms'))).toEqual([]));
    prefetchReferenceData(user);
    renderHook(() => useReferenceData(user), { wrapper });
    await settled('addresses', 'rooms');
    expect(counts).toEqual({ '/addresses/': 1, '/rooms/': 1 });

    await reloadReference(queryClient, ['addresses', 'rooms'], { force: true });
    expect(counts).toEqual({ '/addresses/': 2, '/rooms/': 2 });
  });

  it('raises a loading flag while its resource loads, and clears it on failure', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/recipes/', async () => {
        await answered;
        return HttpResponse.json({ message: 'Не найдено.' }, { status: 404 });
      }),
      http.get('/api/recipes_sets/', () => HttpResponse.json({ data: [] })),
    );
    const { result } = renderHook(
      () => ({ data: useReferenceData(buildAuthUser(['recipes'])), recipes: useLoadingFlag('recipes') }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.recipes).toBe(true));
    release();
    await waitFor(() => expect(result.current.recipes).toBe(false));
    expect(result.current.data.ready).toBe(true);
  });

  it('does not ask again for a list whose prefetch failed when the frame mounts', async () => {
    let asked = 0;
    server.use(
      http.get('/api/recipes/', () => {
        asked += 1;
        return HttpResponse.json({ message: 'Не найдено.' }, { status: 404 });
      }),
      http.get('/api/recipes_sets/', () => HttpResponse.json({ data: [] })),
    );
    const user = buildAuthUser(['recipes']);
    prefetchReferenceData(user);
    await waitFor(() => expect(queryClient.getQueryState(referenceKey('recipes'))?.status).toBe('error'));
    const { result } = renderHook(() => useReferenceData(user), { wrapper });
    await waitFor(() => expect(result.current.ready).toBe(true));
    await settled('recipes', 'recipesSets');
    expect(asked).toBe(1);
  });

  it('stays ready while a list that failed is loaded again, and prefetching leaves known lists alone', async () => {
    let asked = 0;
    let answer = () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 });
    server.use(
      http.get('/api/recipes/', () => {
        asked += 1;
        return answer();
      }),
      http.get('/api/recipes_sets/', () => HttpResponse.json({ data: [] })),
    );
    const user = buildAuthUser(['recipes']);
    const { result } = renderHook(() => useReferenceData(user), { wrapper });
    await waitFor(() => expect(result.current.ready).toBe(true));
    // The account loader runs again on every navigation: nothing known is asked for again.
    prefetchReferenceData(user);
    expect(asked).toBe(1);

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = () => HttpResponse.json({ data: [] });
    server.use(
      http.get('/api/recipes/', async () => {
        asked += 1;
        await held;
        return answer();
      }),
    );
    const reloading = reloadReference(queryClient, ['recipes'], { force: true });
    await waitFor(() => expect(asked).toBe(2));
    expect(result.current.ready).toBe(true);
    release();
    await reloading;
    expect(result.current.ready).toBe(true);
  });

  it('loads the organisation’s users for the complaints screens too, without holding the pages back', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    server.use(
      http.get('/api/users', async () => {
        asked += 1;
        await held;
        return HttpResponse.json({ data: [{ id: 2, name: 'Борис' }] });
      }),
    );
    const user = buildAuthUser(['requests']);
    const { result } = renderHook(
      () => ({
        data: useReferenceData(user),
        users: useReferenceList(user, 'users'),
        loading: useLoadingFlag('users'),
      }),
      { wrapper },
    );
    // Ready while the users list is still on its way: no page waits for it.
    await waitFor(() => expect(result.current.data.ready).toBe(true));
    expect(result.current.loading).toBe(true);
    release();
    await waitFor(() => expect(result.current.users).toEqual([{ id: 2, name: 'Борис' }]));
    expect(result.current.loading).toBe(false);
    expect(asked).toBe(1);
  });

  it('gives a page one list as loaded, and nothing (without a request) for a module the user lacks', async () => {
    const counts = countRequests(['/addresses/', '/rooms/']);
    const user = buildAuthUser(['addresses']);
    const { result } = renderHook(
      () => ({ rooms: useReferenceList(user, 'rooms'), devices: useReferenceList(user, 'devices') }),
      { wrapper },
    );
    await waitFor(() => expect(counts['/rooms/']).toBe(1));
    expect(result.current.rooms).toEqual([]);
    expect(result.current.devices).toEqual([]);
    // A forced reload reaches the page: addresses and rooms are cached, not frozen.
    server.use(http.get('/api/rooms/', () => HttpResponse.json({ data: [{ id: 1 }] })));
    await reloadReference(queryClient, ['rooms'], { force: true });
    await waitFor(() => expect(result.current.rooms).toEqual([{ id: 1 }]));
  });
});

describe('early requests of a page the server answered to a live session (src/early)', () => {
  /** The preload links the server writes into a signed-in visitor's page (apps/api plugins/console.ts). */
  const preload = (...urls: string[]) => {
    for (const url of urls) {
      const link = document.createElement('link');
      // As the server writes them (jsdom knows no `as` property).
      for (const [name, value] of Object.entries({
        rel: 'preload',
        as: 'fetch',
        crossorigin: '',
        'data-early': '',
      }))
        link.setAttribute(name, value);
      link.setAttribute('href', `/api${url}`);
      document.head.append(link);
    }
  };
  afterEach(() => {
    for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
  });

  /**
   * Answers `answers` per path and records who asked: `early` for the plain request that the
   * browser answers from the page's preload (no headers of its own), `client` for the API client's.
   */
  function record(answers: Record<string, () => Response>) {
    const asked: string[] = [];
    server.use(
      ...Object.entries(answers).map(([path, answer]) =>
        http.get(`/api${path}`, ({ request }) => {
          const fromClient = (request.headers.get('accept') ?? '').includes('application/json');
          asked.push(`${fromClient ? 'client' : 'early'} ${path}`);
          return answer();
        }),
      ),
    );
    return asked;
  }

  it('takes a preloaded list from the page’s early request, once; a reload asks the API', async () => {
    const asked = record({
      '/addresses/': () => HttpResponse.json({ data: [{ id: 7, name: 'Early address' }] }),
      '/rooms/': () => HttpResponse.json({ data: [] }),
    });
    preload('/addresses/'); // rooms were not preloaded: the client asks for them
    const user = buildAuthUser(['addresses']);
    prefetchReferenceData(user);
    await waitFor(() => expect(queryClient.getQueryData(referenceKey('rooms'))).toEqual([]));
    await waitFor(() =>
      expect(queryClient.getQueryData(referenceKey('addresses'))).toEqual([{ id: 7, name: 'Early address' }]),
    );
    expect(asked.sort()).toEqual(['client /rooms/', 'early /addresses/']);

    await reloadReference(queryClient, ['addresses'], { force: true });
    expect(asked.filter((one) => one.endsWith('/addresses/'))).toEqual([
      'early /addresses/',
      'client /addresses/',
    ]);
  });

  it('counts an early error answer as the failed load, but lets the client see a lost session', async () => {
    let roomsAsked = 0;
    const asked = record({
      '/addresses/': () => HttpResponse.json({ message: 'Server error' }, { status: 500 }),
      '/rooms/': () =>
        ++roomsAsked === 1
          ? HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })
          : HttpResponse.json({ data: [] }),
    });
    preload('/addresses/', '/rooms/');
    const { result } = renderHook(() => useReferenceData(buildAuthUser(['addresses'])), { wrapper });
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(queryClient.getQueryState(referenceKey('addresses'))?.status).toBe('error');
    // 401 goes through the API client (which signs out on it); here the second answer is a list.
    expect(asked.sort()).toEqual(['client /rooms/', 'early /addresses/', 'early /rooms/']);
  });
});

describe('names in the interface language', () => {
  afterEach(async () => {
    await act(() => setLocale('ru'));
  });

  it('names device types by their slug in the interface language, whatever language the list came in', async () => {
    // As a preload in an English browser answers: the request's language, not the console's.
    queryClient.setQueryData(referenceKey('deviceTypes'), [
      buildDeviceType({ id: 1, slug: 'combi_oven', name: 'Combi oven' }),
      buildDeviceType({ id: 2, slug: 'fryer', name: 'Fryer' }),
      // A type this console does not know yet keeps the name the server gave it.
      buildDeviceType({ id: 3, slug: 'sous_vide' as 'other', name: 'Су-вид' }),
    ]);
    const user = buildAuthUser(['devices']);
    const { result } = renderHook(() => useReferenceList<{ name: string }>(user, 'deviceTypes'), { wrapper });
    expect(result.current.map((type) => type.name)).toEqual(['Пароконвектомат', 'Фритюрница', 'Су-вид']);

    await act(() => setLocale('en'));
    expect(result.current.map((type) => type.name)).toEqual(['Combi oven', 'Fryer', 'Су-вид']);
  });

  it('names the built-in administrator role in the interface language until it is renamed', async () => {
    queryClient.setQueryData(referenceKey('aclRoles'), [
      buildAclRole({ id: 1, name: 'Administrator', is_admin_role: true }),
      buildAclRole({ id: 2, name: 'Administrator' }),
      buildAclRole({ id: 3, name: 'Шефы', is_admin_role: true }),
    ]);
    const user = buildAuthUser(['users']);
    const { result } = renderHook(() => useReferenceList<{ name: string }>(user, 'aclRoles'), { wrapper });
    // Only the built-in role under its first name: a role someone named so, or a renamed one, stays.
    expect(result.current.map((role) => role.name)).toEqual(['Администратор', 'Administrator', 'Шефы']);

    await act(() => setLocale('en'));
    expect(result.current.map((role) => role.name)).toEqual(['Administrator', 'Administrator', 'Шефы']);
  });
});
