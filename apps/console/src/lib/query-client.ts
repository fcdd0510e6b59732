import { QueryClient } from '@tanstack/react-query';

/**
 * The console's server-state cache. Failed loads are not retried (docs/contract.md, "Error catalogue": a failed load is
 * logged, its flag cleared, nothing shown) and windows regaining focus do not refetch on their
 * own: the screens decide when data is stale.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
