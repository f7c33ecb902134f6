import { type View, viewRoutes } from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export const viewKeys = {
  list: (projectId: number) => ['project', projectId, 'views'] as const,
}

export function useViews(projectId: number) {
  return useQuery({
    queryKey: viewKeys.list(projectId),
    queryFn: async ({ signal }): Promise<View[]> =>
      (await api.call(viewRoutes.list, { params: { project_id: projectId }, signal })) ?? [],
  })
}

/** A view being edited; new views have a negative id until they are saved. */
export interface DraftView {
  id: number
  title: string
}

/**
 * Saves the edited tabs: deletes the removed views, renames and creates the others, then stores
 * every position as one map.
 */
export function useSaveViews(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ original, draft }: { original: View[]; draft: DraftView[] }) => {
      const params = { project_id: projectId }
      const kept = new Set(draft.map((view) => view.id))
      for (const view of original) {
        if (!kept.has(view.id)) {
          await api.call(viewRoutes.remove, { params: { ...params, view_id: view.id } })
        }
      }
      const positions: Record<string, number> = {}
      for (const [position, view] of draft.entries()) {
        const title = view.title.trim()
        if (view.id < 0) {
          const created = await api.call(viewRoutes.create, {
            params,
            body: { title, position, project_id: projectId },
          })
          positions[String(created.id)] = position
        } else {
          const before = original.find((item) => item.id === view.id)
          if (before && before.title !== title) {
            await api.call(viewRoutes.update, {
              params: { ...params, view_id: view.id },
              body: { id: view.id, title, position, project_id: projectId },
            })
          }
          positions[String(view.id)] = position
        }
      }
      if (Object.keys(positions).length > 0) {
        await api.call(viewRoutes.positions, { params, body: positions })
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: viewKeys.list(projectId) }),
  })
}
