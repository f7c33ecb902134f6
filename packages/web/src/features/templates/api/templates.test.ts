import type { Template, TaskUpdateMessage } from '@flagman/contract'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { applyTemplateTaskUpdate } from './templates'
import { templateFixture } from '../../../testing/fixtures'
import { templateKeys } from './templates.query-keys'

function template(id: number, lastTaskId: number | null): Template {
  return templateFixture({
    id,
    name: `tpl${id}`,
    playbook: 'run.sh',
    tasks: lastTaskId === null ? 0 : 1,
    last_task:
      lastTaskId === null
        ? null
        : {
            id: lastTaskId,
            template_id: id,
            project_id: 3,
            status: 'waiting',
            message: '',
            commit_hash: null,
            commit_message: '',
            version: null,
            user_id: 1,
            user_name: 'Ada',
            created: '2026-01-01T00:00:00Z',
            start: null,
            end: null,
            tpl_alias: `tpl${id}`,
            tpl_type: '',
            tpl_app: 'bash',
            tpl_playbook: 'run.sh',
          },
  })
}

function update(fields: Partial<TaskUpdateMessage>): TaskUpdateMessage {
  return {
    type: 'update',
    task_id: 50,
    project_id: 3,
    template_id: 1,
    status: 'running',
    start: '2026-01-01T00:00:01Z',
    end: null,
    version: null,
    ...fields,
  }
}

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const all = templateKeys.list(3, null)
  const view = templateKeys.list(3, 4)
  client.setQueryData(all, [template(1, 50), template(2, null)])
  client.setQueryData(view, [template(1, 50)])
  client.setQueryData(templateKeys.item(3, 1), template(1, 50))
  const lastTasks = [...templateKeys.item(3, 1), 'tasks', 5]
  client.setQueryData(lastTasks, [])
  return { client, all, view, lastTasks }
}

describe('applyTemplateTaskUpdate', () => {
  it('patches the last task of the template in every list and on its page', () => {
    const { client, all, view, lastTasks } = setup()
    applyTemplateTaskUpdate(
      client,
      update({ status: 'success', end: '2026-01-01T00:00:09Z', version: '1.0.1' }),
    )
    for (const key of [all, view]) {
      const [first, second] = client.getQueryData<Template[]>(key) ?? []
      expect(first?.last_task).toMatchObject({
        id: 50,
        status: 'success',
        start: '2026-01-01T00:00:01Z',
        end: '2026-01-01T00:00:09Z',
        version: '1.0.1',
        user_name: 'Ada',
      })
      if (key === all) expect(second?.last_task).toBeNull()
    }
    expect(client.getQueryData<Template>(templateKeys.item(3, 1))?.last_task?.status).toBe(
      'success',
    )
    expect(client.getQueryState(all)?.isInvalidated).toBe(false)
    // The last tasks of an expanded row are read again.
    expect(client.getQueryState(lastTasks)?.isInvalidated).toBe(true)
  })

  it('reads the templates again for a task the lists do not know yet', () => {
    const { client, all, view } = setup()
    applyTemplateTaskUpdate(client, update({ task_id: 51, status: 'waiting' }))
    expect(client.getQueryState(all)?.isInvalidated).toBe(true)
    expect(client.getQueryState(view)?.isInvalidated).toBe(true)
    expect(client.getQueryState(templateKeys.item(3, 1))?.isInvalidated).toBe(true)
    expect(client.getQueryData<Template[]>(all)?.[0]?.last_task?.status).toBe('waiting')
  })

  it('leaves other projects and older tasks alone', () => {
    const { client, all } = setup()
    applyTemplateTaskUpdate(client, update({ project_id: 9, status: 'error' }))
    applyTemplateTaskUpdate(client, update({ task_id: 49, status: 'error' }))
    expect(client.getQueryState(all)?.isInvalidated).toBe(false)
    expect(client.getQueryData<Template[]>(all)?.[0]?.last_task?.status).toBe('waiting')
  })
})
