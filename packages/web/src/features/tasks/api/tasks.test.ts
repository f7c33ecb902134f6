import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { applyTaskUpdate } from './tasks'
import { taskKeys } from './tasks.query-keys'

const update = {
  type: 'update' as const,
  project_id: 4,
  task_id: 12,
  template_id: 3,
  status: 'success',
  start: '2026-01-01T00:00:00Z',
  end: '2026-01-01T00:00:05Z',
  version: '1.0.1',
}

/** The project history as the console caches it: the pages loaded so far. */
const history = (...pages: { id: number; status: string }[][]) => ({
  pages,
  pageParams: pages.map((_, i) => (i === 0 ? undefined : i)),
})

function seeded() {
  const client = new QueryClient()
  client.setQueryData(taskKeys.detail(4, 12), { id: 12, status: 'running', version: null })
  client.setQueryData(taskKeys.list(4), history([{ id: 11, status: 'success' }]))
  return client
}

const invalidated = (client: QueryClient, key: readonly unknown[]) =>
  client.getQueryState(key)?.isInvalidated ?? false

describe('applyTaskUpdate', () => {
  it('merges the update into the shown task and reloads a list that lacks it', () => {
    const client = seeded()
    applyTaskUpdate(client, update)
    expect(client.getQueryData(taskKeys.detail(4, 12))).toMatchObject({
      status: 'success',
      version: '1.0.1',
    })
    expect(invalidated(client, taskKeys.list(4))).toBe(true)
  })

  it('patches a listed task in place, on whichever loaded page it is', () => {
    const client = seeded()
    client.setQueryData(
      taskKeys.list(4),
      history([{ id: 14, status: 'success' }], [{ id: 12, status: 'running' }]),
    )
    applyTaskUpdate(client, update)
    expect(client.getQueryData(taskKeys.list(4))).toEqual(
      history(
        [{ id: 14, status: 'success' }],
        [expect.objectContaining({ id: 12, status: 'success' })],
      ),
    )
    expect(invalidated(client, taskKeys.list(4))).toBe(false)
  })
})
