import { useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router-dom'
import { useRealtime, useRealtimeReconnect } from '../../../hooks/use-realtime'
import { applyTaskUpdate } from '../api/tasks'
import { TaskLogDialog } from './task-log-dialog'

export const TASK_PARAM = 't'

/** Shows the task log dialog while the URL carries `?t={taskId}`; closing removes it. */
export function TaskLogHost({ projectId }: { projectId: number }) {
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
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
  return <TaskLogDialog key={taskId} projectId={projectId} taskId={taskId} onClose={close} />
}

/** The search string that opens a task's log on the current page. */
export function taskSearch(taskId: number): string {
  return `?${TASK_PARAM}=${taskId}`
}
