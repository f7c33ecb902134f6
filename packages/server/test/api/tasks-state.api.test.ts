import { TASK_STATUSES, type TaskStatus } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { planDispatch, type RunnerSlots } from '../../src/modules/tasks/dispatch.js'
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

const item = (taskId: number, projectId: number, templateId: number, runnerTag?: string) => ({
  taskId,
  projectId,
  templateId,
  runnerTag: runnerTag ?? null,
  runnerId: null as number | null,
})
type Item = ReturnType<typeof item>
type Limits = { global: number; project: Map<number, number> }
const pickRunnable = (queue: Item[], active: Item[], limits: Limits): Item[] => {
  const plan = planDispatch(queue, active, [], { ...limits, localExecution: true })
  return plan.placements.map((p) => queue.find((q) => q.taskId === p.taskId)!)
}
const ids = (items: Item[]) => items.map((i) => i.taskId)

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

describe('dispatch to runners', () => {
  const limits = { global: 0, project: new Map<number, number>(), localExecution: true }
  const runner = (id: number, extra: Partial<RunnerSlots> = {}): RunnerSlots => ({
    id,
    projectId: null,
    tags: [],
    maxParallelTasks: 0,
    available: true,
    ...extra,
  })
  const targets = (plan: ReturnType<typeof planDispatch>) =>
    plan.placements.map((p) =>
      p.target === 'local' ? `${p.taskId}:local` : `${p.taskId}:#${p.runnerId}`,
    )

  it('sends a tagged task only to an available runner carrying the tag', () => {
    const runners = [
      runner(1),
      runner(2, { tags: ['gpu', 'eu'] }),
      runner(3, { tags: ['gpu'], available: false }),
    ]
    const plan = planDispatch([item(1, 1, 1, 'gpu'), item(2, 1, 2, 'arm')], [], runners, limits)
    expect(targets(plan)).toEqual(['1:#2'])
    expect(plan.reasons.get(2)).toBe(
      'Waiting for a runner with the tag "arm": none is active and online',
    )
  })

  it('never runs a tagged task on the server, and an untagged one never on a tagged runner', () => {
    const plan = planDispatch(
      [item(1, 1, 1, 'gpu'), item(2, 1, 2)],
      [],
      [runner(5, { tags: ['gpu'], maxParallelTasks: 1 })],
      limits,
    )
    expect(targets(plan)).toEqual(['1:#5', '2:local'])
  })

  it("prefers the project's own runners, then the least loaded, and keeps runner limits", () => {
    const runners = [
      runner(1, { maxParallelTasks: 1 }),
      runner(2, { projectId: 7, maxParallelTasks: 1 }),
    ]
    const noLocal = { ...limits, localExecution: false }
    const plan = planDispatch([item(1, 7, 1), item(2, 7, 2), item(3, 7, 3)], [], runners, noLocal)
    expect(targets(plan)).toEqual(['1:#2', '2:#1'])
    expect(plan.reasons.get(3)).toBe('Waiting for a free runner')
    const other = planDispatch([item(4, 8, 4)], [], [runner(2, { projectId: 7 })], noLocal)
    expect(targets(other)).toEqual([])
  })

  it("counts a runner's busy tasks against its slots and the global limit", () => {
    const busy = [{ ...item(9, 1, 9), runnerId: 1 }]
    const plan = planDispatch(
      [item(1, 1, 1), item(2, 1, 2)],
      busy,
      [runner(1, { maxParallelTasks: 1 })],
      { ...limits, global: 2 },
    )
    expect(targets(plan)).toEqual(['1:local'])
    expect(plan.reasons.get(2)).toBe('The server already runs its maximum of 2 tasks')
  })
})
