import type { AuthUser } from '@kontrol/contracts';
import { useIsFetching, useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { getLocale } from '../i18n';
import { queryClient } from '../query-client';
import { referenceKey, referenceResources, type LoadingFlag, type ReferenceResource } from './resources';

function queryFor(resource: ReferenceResource) {
  return {
    queryKey: referenceKey(resource.name),
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      try {
        return await resource.load(signal);
      } catch (error) {
        // docs/contract.md, "Error catalogue": a failed load is logged, its flag cleared, and nothing is shown to the user.
        console.error(`Could not load ${resource.name}`, error);
        throw error;
      }
    },
    staleTime: resource.cached ? Number.POSITIVE_INFINITY : 30_000,
    // A load that failed while prefetching (docs/contract.md, "Error catalogue": logged, flag cleared) is not asked for again
    // just because the frame mounts; `reloadReference` and the next entry ask again.
    retryOnMount: false,
  };
}

function resourcesFor(user: AuthUser) {
  const held = new Set(user.acl_modules.map((m) => m.slug));
  return referenceResources.filter((r) => r.modules.some((slug) => held.has(slug)));
}

/**
 * Starts loading what {@link useReferenceData} will wait for, as early as the user is known. A list
 * already loaded, loading or failed is left alone: the account loader runs on every navigation,
 * and lists are reloaded only as docs/contract.md, "States and transitions" says (after changes, {@link reloadReference}).
 */
export function prefetchReferenceData(user: AuthUser): void {
  for (const resource of resourcesFor(user)) {
    const options = queryFor(resource);
    if (queryClient.getQueryState(options.queryKey) === undefined) {
      void queryClient.prefetchQuery(options);
    }
  }
}

/**
 * Starts loading the reference data the user's modules allow and says whether the account pages
 * may render: when every gating resource has loaded or failed (docs/contract.md, "Product and areas").
 */
export function useReferenceData(user: AuthUser): { ready: boolean } {
  const resources = resourcesFor(user);
  // `combine` to one boolean: the frame re-renders when the gate opens, not at every list's answer
  // (each would otherwise re-render the whole frame in a task of its own, docs/contract.md, "Product and areas" needs only this).
  const settled = useQueries({
    queries: resources.map(queryFor),
    combine: (results) => resources.every((resource, index) => !resource.gates || !results[index]?.isPending),
  });
  // The gate is for entering the area: once the pages showed, reloading a list that has no data
  // (one that failed before) must not take the page away from under the user (and their typing).
  const shown = useRef(false);
  if (settled) shown.current = true;
  return { ready: shown.current };
}

const NOTHING: readonly never[] = [];

/**
 * One reference list as the account frame loaded it (docs/contract.md, "Product and areas"), kept up to date by
 * {@link reloadReference}. Empty when the user's modules do not allow the list (it is then never
 * requested) or when its load failed. Use only for lists: device types, devices, addresses, rooms….
 */
export function useReferenceList<T>(user: AuthUser, name: string): readonly T[] {
  const resource = referenceResources.find((r) => r.name === name);
  if (!resource) throw new Error(`Unknown reference list ${name}`);
  const allowed = user.acl_modules.some((m) => resource.modules.includes(m.slug));
  const { data } = useQuery({ ...queryFor(resource), enabled: allowed });
  // Subscribed to the language: a switch names the items anew, without asking the server again.
  useTranslation();
  const locale = getLocale();
  const localise = resource.localise;
  const list = useMemo(
    () => (Array.isArray(data) && localise ? localise(data, locale) : data),
    [data, localise, locale],
  );
  return allowed && Array.isArray(list) ? (list as T[]) : NOTHING;
}

/** docs/contract.md, "States and transitions" loading flags: true while any request of that resource is under way. */
export function useLoadingFlag(flag: LoadingFlag): boolean {
  const names = referenceResources.filter((r) => r.flag === flag).map((r) => r.name);
  return (
    useIsFetching({
      predicate: (query) => query.queryKey[0] === 'reference' && names.includes(String(query.queryKey[1])),
    }) > 0
  );
}

/**
 * Reloads reference lists after a change (docs/contract.md, "States and transitions"): `force` bypasses the address/room cache. After
 * an address or a room changes, call it with both, forced.
 */
export async function reloadReference(
  client: QueryClient,
  names: string[],
  options: { force?: boolean } = {},
) {
  await Promise.all(
    names.map((name) =>
      options.force
        ? client.refetchQueries({ queryKey: referenceKey(name) })
        : client.invalidateQueries({ queryKey: referenceKey(name) }),
    ),
  );
}
