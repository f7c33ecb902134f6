import { type ActivateSubscriptionBody, subscriptionRoutes } from '@flagman/contract'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export const subscriptionKeys = {
  all: ['subscription'] as const,
}

export const subscriptionQueryOptions = () =>
  queryOptions({
    queryKey: subscriptionKeys.all,
    queryFn: ({ signal }) => api.call(subscriptionRoutes.get, { signal }),
  })

export function useSubscription(enabled = true) {
  return useQuery({ ...subscriptionQueryOptions(), enabled })
}

export function useActivateSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ActivateSubscriptionBody) => api.call(subscriptionRoutes.activate, { body }),
    onSuccess: (subscription) => {
      queryClient.setQueryData(subscriptionKeys.all, subscription)
    },
  })
}
