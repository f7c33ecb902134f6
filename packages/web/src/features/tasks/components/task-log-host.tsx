import { useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useRealtime, useRealtimeReconnect } from '../../../hooks/use-realtime'
import { applyTaskUpdate } from '../api/tasks'

// Every project page holds the host. The log view's code is not part of the first page's
// scripts; it is asked for as soon as the page has mounted, while the page's data loads, so
// it is there by the time a task can be picked.
const loadTaskLogDialog = () => import('./task-log-dialog')
const TaskLogDialog = lazy(async () => ({ default: (await loadTaskLogDialog()).TaskLogDialog }))

export const TASK_PARAM = 't'

/** Shows the task log dialog while the URL carries `?t={taskId}`; closing removes it. */
export function TaskLogHost({ projectId }: { projectId: number }) {
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  useEffect(() => void loadTaskLogDialog().catch(() => undefined), [])
  useRealtime((message) => {
    if (message.type === 'update' && message.project_id === projectId) {
      applyTaskUpdate(queryClient, message)
    }
  })
  // Updates and log lines sent while the socket was down were missed: read the project's
  // shown data (task lists, the open log, last tasks of templates) again.
  useRealtimeReconnect(() => {
    void queryClient.invalidateQueries({ queryKey: ['project', projectId] })
  })
  const raw = params.get(TASK_PARAM)
  const taskId = raw && /^\d+$/.test(raw) ? Number(raw) : null
  if (taskId === null) return null
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete(TASK_PARAM)
        return next
      },
      { replace: true },
    )
  return (
    <Suspense fallback={null}>
      <TaskLogDialog key={taskId} projectId={projectId} taskId={taskId} onClose={close} />
    </Suspense>
  )
}

/** The search string that opens a task's log on the current page. */
export function taskSearch(taskId: number): string {
  return `?${TASK_PARAM}=${taskId}`
}
