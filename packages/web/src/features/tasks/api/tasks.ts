import {
  activeTaskRoutes,
  taskRoutes,
  templateRoutes,
  type CreateTaskBody,
  type TaskUpdateMessage,
} from '@flagman/contract'
import {
  type InfiniteData,
  type QueryClient,
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keysetQuery, nextCursor } from '../../../lib/keyset-pages'
import { taskKeys } from './tasks.query-keys'

export function useTask(projectId: number, taskId: number | null) {
  return useQuery({
    queryKey: taskKeys.detail(projectId, taskId ?? 0),
    queryFn: ({ signal }) =>
      api.call(taskRoutes.get, { params: { project_id: projectId, task_id: taskId ?? 0 }, signal }),
    enabled: taskId !== null,
  })
}

export function useTaskOutput(projectId: number, taskId: number | null) {
  return useQuery({
    queryKey: taskKeys.output(projectId, taskId ?? 0),
    queryFn: async ({ signal }) =>
      (await api.call(taskRoutes.output, {
        params: { project_id: projectId, task_id: taskId ?? 0 },
        signal,
      })) ?? [],
    enabled: taskId !== null,
    staleTime: Infinity,
  })
}

/** Tasks a history page asks the server for: five table pages. */
export const HISTORY_PAGE_SIZE = 100

/** The project's history, newest first, loaded a page at a time as the table goes back. */
export const projectTasksQueryOptions = (projectId: number) =>
  infiniteQueryOptions({
    queryKey: taskKeys.list(projectId),
    queryFn: async ({ pageParam, signal }) =>
      (await api.call(taskRoutes.list, {
        params: { project_id: projectId },
        query: keysetQuery(HISTORY_PAGE_SIZE, pageParam),
        signal,
      })) ?? [],
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => nextCursor(last, HISTORY_PAGE_SIZE),
  })

export function useProjectTasks(projectId: number) {
  return useInfiniteQuery(projectTasksQueryOptions(projectId))
}

/** The global list of active tasks is read again this often, besides its live updates. */
export const ACTIVE_TASKS_REFRESH_MS = 10_000

export function useActiveTasks() {
  return useQuery({
    queryKey: taskKeys.active(),
    queryFn: async ({ signal }) => (await api.call(activeTaskRoutes.list, { signal })) ?? [],
    refetchInterval: ACTIVE_TASKS_REFRESH_MS,
  })
}

export type TaskAction = 'stop' | 'force' | 'confirm' | 'reject'

export function useTaskAction(projectId: number, taskId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (action: TaskAction) => {
      const params = { project_id: projectId, task_id: taskId }
      if (action === 'confirm') await api.call(taskRoutes.confirm, { params })
      else if (action === 'reject') await api.call(taskRoutes.reject, { params })
      else await api.call(taskRoutes.stop, { params, body: { force: action === 'force' } })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all(projectId) }),
  })
}

/** Merges a socket update into every cached copy of the task. */
export function applyTaskUpdate(queryClient: QueryClient, message: TaskUpdateMessage) {
  const { task_id, project_id, status, start, end, version } = message
  const patch = { status, start, end, version }
  queryClient.setQueryData(
    taskKeys.detail(project_id, task_id),
    (task: Record<string, unknown> | undefined) => (task ? { ...task, ...patch } : task),
  )
  let known = false
  const patched = (list: readonly { id: number }[]) =>
    list.map((task) => {
      if (task.id !== task_id) return task
      known = true
      return { ...task, ...patch }
    })
  queryClient.setQueryData(
    taskKeys.list(project_id),
    (history: InfiniteData<{ id: number }[]> | undefined) =>
      history && { ...history, pages: history.pages.map(patched) },
  )
  if (!known) void queryClient.invalidateQueries({ queryKey: taskKeys.list(project_id) })
}

export function useTaskTemplate(projectId: number, templateId: number | undefined) {
  return useQuery({
    queryKey: [...taskKeys.all(projectId), 'template', templateId ?? 0] as const,
    queryFn: ({ signal }) =>
      api.call(templateRoutes.get, {
        params: { project_id: projectId, template_id: templateId ?? 0 },
        signal,
      }),
    enabled: templateId !== undefined,
    staleTime: 60_000,
  })
}

export function useCreateTask(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateTaskBody) =>
      api.call(taskRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project', projectId] }),
  })
}

/** Successful tasks of a build template, newest first: the versions a deploy can use. */
export function useBuildVersions(projectId: number, buildTemplateId: number | null) {
  return useQuery({
    queryKey: [...taskKeys.all(projectId), 'builds', buildTemplateId ?? 0] as const,
    queryFn: async ({ signal }) =>
      (
        (await api.call(taskRoutes.templateTasks, {
          params: { project_id: projectId, template_id: buildTemplateId ?? 0 },
          query: { status: 'success' },
          signal,
        })) ?? []
      ).sort((a, b) => b.id - a.id),
    enabled: buildTemplateId !== null,
  })
}

export function useTemplateTasks(projectId: number, templateId: number) {
  return useQuery({
    queryKey: [...taskKeys.list(projectId), 'template', templateId] as const,
    queryFn: async ({ signal }) =>
      (await api.call(taskRoutes.templateLastTasks, {
        params: { project_id: projectId, template_id: templateId },
        query: { limit: '200' },
        signal,
      })) ?? [],
  })
}

export function useTemplateStats(
  projectId: number,
  templateId: number,
  start: string,
  userId: number | null,
) {
  return useQuery({
    queryKey: [...taskKeys.stats(projectId, templateId), start, userId] as const,
    queryFn: async ({ signal }) =>
      (await api.call(taskRoutes.templateStats, {
        params: { project_id: projectId, template_id: templateId },
        query: userId === null ? { start } : { start, user_id: String(userId) },
        signal,
      })) ?? [],
  })
}
