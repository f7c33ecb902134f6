import type { Event } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { eventParts } from './describe-event'

function event(object_type: string, description: string, extra: Partial<Event> = {}): Event {
  return {
    user_id: 1,
    project_id: 1,
    integration_id: null,
    object_id: 3,
    object_type,
    description,
    created: '2024-01-01T00:00:00Z',
    object_name: '',
    project_name: 'P',
    username: 'admin',
    ...extra,
  }
}

describe('eventParts', () => {
  it('reads objects named by id and by name alike', () => {
    expect(eventParts(event('template', 'Template ID 3 created'))).toEqual({
      type: 'template',
      action: 'created',
      name: null,
      id: 3,
    })
    expect(eventParts(event('inventory', 'Inventory localhost created'))).toEqual({
      type: 'inventory',
      action: 'created',
      name: 'localhost',
      id: 3,
    })
    expect(eventParts(event('key', 'Access Key deploy key deleted'))?.name).toBe('deploy key')
  })

  it('prefers the name the server stored', () => {
    expect(
      eventParts(event('template', 'Template ID 3 updated', { object_name: 'Deploy' }))?.name,
    ).toBe('Deploy')
  })

  it('leaves other wordings to be shown as they are', () => {
    expect(eventParts(event('task', 'Task ID 5 queued for running'))).toBeNull()
    expect(eventParts(event('user', 'Password of user bob changed'))).toBeNull()
    expect(eventParts(event('template', 'Inventory x created'))).toBeNull()
  })
})
