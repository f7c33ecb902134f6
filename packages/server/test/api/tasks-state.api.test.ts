import { TASK_STATUSES, type TaskStatus } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { pickRunnable, type QueueItem } from '../../src/modules/tasks/queue-limits.js'
import { canTransition, finalStatus } from '../../src/modules/tasks/task-state.js'

const ALLOWED: Array<[string, TaskStatus]> = [
  ['waiting', 'starting'],
  ['waiting', 'stopped'],
  ['waiting', 'stopping'],
  ['starting', 'running'],
  ['starting', 'error'],
  ['running', 'success'],
  ['running', 'error'],
  ['running', 'waiting_confirmation'],
  ['running', 'stopping'],
  ['running', 'stopped'],
  ['waiting_confirmation', 'confirmed'],
  ['waiting_confirmation', 'rejected'],
  ['confirmed', 'running'],
  ['rejected', 'error'],
  ['stopping', 'stopped'],
  ['stopping', 'error'],
]

const REFUSED: Array<[string, TaskStatus]> = [
  ['waiting', 'running'],
  ['waiting', 'success'],
  ['starting', 'success'],
  ['running', 'running'],
  ['running', 'waiting'],
  ['running', 'confirmed'],
  ['stopping', 'running'],
  ['stopping', 'success'],
  ['stopping', 'waiting_confirmation'],
  ['rejected', 'running'],
  ['rejected', 'success'],
  ['confirmed', 'waiting_confirmation'],
  ['unknown', 'running'],
]

describe('task status machine', () => {
  it.each(ALLOWED)('allows %s → %s', (from, to) => expect(canTransition(from, to)).toBe(true))
  it.each(REFUSED)('refuses %s → %s', (from, to) => expect(canTransition(from, to)).toBe(false))

  it('never changes a finished task', () => {
    for (const from of ['success', 'error', 'stopped']) {
      for (const to of TASK_STATUSES) expect(canTransition(from, to), `${from}→${to}`).toBe(false)
    }
  })

  it('reports a stopped run as stopped and a rejected plan as error', () => {
    expect(finalStatus('running', 'success', false)).toBe('success')
    expect(finalStatus('running', 'error', false)).toBe('error')
    expect(finalStatus('stopping', 'success', false)).toBe('stopped')
    expect(finalStatus('running', 'success', true)).toBe('stopped')
    expect(finalStatus('rejected', 'error', false)).toBe('error')
    expect(finalStatus('rejected', 'success', false)).toBe('error')
  })
})

const item = (taskId: number, projectId: number, templateId: number): QueueItem => ({
  taskId,
  projectId,
  templateId,
})
const ids = (items: QueueItem[]) => items.map((i) => i.taskId)

describe('queue limits', () => {
  const none = { global: 0, project: new Map<number, number>() }

  it('starts everything when nothing limits it', () => {
    expect(ids(pickRunnable([item(1, 1, 1), item(2, 1, 2), item(3, 2, 3)], [], none))).toEqual([
      1, 2, 3,
    ])
  })

  it('honours the global limit, counting running tasks', () => {
    const queue = [item(1, 1, 1), item(2, 2, 2), item(3, 3, 3)]
    expect(ids(pickRunnable(queue, [], { ...none, global: 2 }))).toEqual([1, 2])
    expect(ids(pickRunnable(queue, [item(9, 9, 9)], { ...none, global: 2 }))).toEqual([1])
    expect(
      ids(pickRunnable(queue, [item(8, 8, 8), item(9, 9, 9)], { ...none, global: 2 })),
    ).toEqual([])
  })

  it('honours the project limit without holding other projects back', () => {
    const queue = [item(1, 1, 1), item(2, 1, 2), item(3, 2, 3)]
    const limits = { global: 0, project: new Map([[1, 1]]) }
    expect(ids(pickRunnable(queue, [], limits))).toEqual([1, 3])
    expect(ids(pickRunnable(queue, [item(7, 1, 7)], limits))).toEqual([3])
  })

  it('runs one task per template at a time', () => {
    const queue = [item(1, 1, 5), item(2, 1, 5), item(3, 1, 6)]
    expect(ids(pickRunnable(queue, [], none))).toEqual([1, 3])
    expect(ids(pickRunnable(queue, [item(0, 1, 5)], none))).toEqual([3])
  })

  it('keeps queue order', () => {
    const queue = [item(4, 1, 1), item(2, 1, 2), item(3, 1, 3)]
    expect(ids(pickRunnable(queue, [], { global: 2, project: new Map() }))).toEqual([4, 2])
  })
})
