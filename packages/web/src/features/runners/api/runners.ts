import {
  type CreatedRunner,
  type CreateRunnerBody,
  globalRunnerRoutes,
  projectRunnerRoutes,
  type Runner,
} from '@flagman/contract'
import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { infoQueryOptions } from '../../system/api/get-info'
import { runnerKeys, type RunnerScope } from './runners.query-keys'

/** How often the list is read again, so that online states and running tasks stay current. */
export const RUNNERS_REFRESH_MS = 10_000

export const runnersQueryOptions = (scope: RunnerScope) =>
  queryOptions({
    queryKey: runnerKeys.list(scope),
    queryFn: async ({ signal }): Promise<Runner[]> =>
      (scope.projectId === null
        ? await api.call(globalRunnerRoutes.list, { signal })
        : await api.call(projectRunnerRoutes.list, {
            params: { project_id: scope.projectId },
            signal,
          })) ?? [],
    refetchInterval: RUNNERS_REFRESH_MS,
  })

export function useRunners(scope: RunnerScope, enabled = true) {
  return useQuery({ ...runnersQueryOptions(scope), enabled })
}

/**
 * After a runner is added or removed: the list, and the server information, whose
 * `use_remote_runner` (runners in use) shows the runners entry of the user menu.
 */
function invalidateAfterChange(queryClient: QueryClient, scope: RunnerScope) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: runnerKeys.list(scope) }),
    queryClient.invalidateQueries({ queryKey: infoQueryOptions().queryKey }),
  ])
}

export function useCreateRunner(scope: RunnerScope) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateRunnerBody): Promise<CreatedRunner> =>
      scope.projectId === null
        ? api.call(globalRunnerRoutes.create, { body })
        : api.call(projectRunnerRoutes.create, {
            params: { project_id: scope.projectId },
            body: { ...body, project_id: scope.projectId },
          }),
    onSuccess: () => invalidateAfterChange(queryClient, scope),
  })
}

export function useUpdateRunner(scope: RunnerScope) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CreateRunnerBody }) =>
      scope.projectId === null
        ? api.call(globalRunnerRoutes.update, { params: { runner_id: id }, body })
        : api.call(projectRunnerRoutes.update, {
            params: { project_id: scope.projectId, runner_id: id },
            body: { ...body, project_id: scope.projectId },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runnerKeys.list(scope) }),
  })
}

/**
 * Turns a runner on or off at once: the list shows the new state before the server answers
 * and goes back to the old one if it refuses.
 */
export function useSetRunnerActive(scope: RunnerScope) {
  const queryClient = useQueryClient()
  const listKey = runnerKeys.list(scope)
  const setInList = (id: number, active: boolean) =>
    queryClient.setQueryData<Runner[]>(listKey, (list) =>
      list?.map((item) => (item.id === id ? { ...item, active } : item)),
    )
  return useMutation({
    mutationFn: ({ runner, active }: { runner: Runner; active: boolean }) =>
      scope.projectId === null
        ? api.call(globalRunnerRoutes.setActive, {
            params: { runner_id: runner.id },
            body: { active },
          })
        : api.call(projectRunnerRoutes.setActive, {
            params: { project_id: scope.projectId, runner_id: runner.id },
            body: { active },
          }),
    onMutate: async ({ runner, active }) => {
      await queryClient.cancelQueries({ queryKey: listKey })
      setInList(runner.id, active)
    },
    onError: (_error, { runner }) => setInList(runner.id, runner.active),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  })
}

export function useDeleteRunner(scope: RunnerScope) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (runner: Runner) => {
      if (scope.projectId === null) {
        await api.call(globalRunnerRoutes.delete, { params: { runner_id: runner.id } })
      } else {
        await api.call(projectRunnerRoutes.delete, {
          params: { project_id: scope.projectId, runner_id: runner.id },
        })
      }
      return runner
    },
    onSuccess: () => invalidateAfterChange(queryClient, scope),
  })
}
