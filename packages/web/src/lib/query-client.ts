import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query'
import { isApiError, isUnauthorized } from './api-client'

export interface QueryClientHooks {
  /**
   * Called when a request is answered 401. The compatible API also uses 401 for some refusals,
   * so this should check the session rather than sign out at once.
   */
  onUnauthorized?: (client: QueryClient, failedQueryKey: QueryKey | null) => void
}

export function createQueryClient({ onUnauthorized }: QueryClientHooks = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isUnauthorized(error)) onUnauthorized?.(client, query.queryKey)
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isUnauthorized(error)) onUnauthorized?.(client, null)
      },
    }),
    defaultOptions: {
      queries: {
        // Client errors will not change by asking again; network and server errors may.
        retry: (failureCount, error) =>
          !(isApiError(error) && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  })
  return client
}
