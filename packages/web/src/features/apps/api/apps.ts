import { type App, appRoutes, type SaveAppBody } from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export const appKeys = {
  list: () => ['apps'] as const,
}

export function useApps() {
  return useQuery({
    queryKey: appKeys.list(),
    queryFn: async ({ signal }): Promise<App[]> =>
      (await api.call(appRoutes.list, { signal })) ?? [],
  })
}

export function useSaveApp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SaveAppBody }) =>
      api.call(appRoutes.save, { params: { app_id: id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.list() }),
  })
}

export function useSetAppActive() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      api.call(appRoutes.setActive, { params: { app_id: id }, body: { active } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: appKeys.list() }),
  })
}

export function useDeleteApp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (app: App) => {
      await api.call(appRoutes.remove, { params: { app_id: app.id } })
      return app
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.list() }),
  })
}
