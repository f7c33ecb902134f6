import { describe, expect, it } from 'vitest'
import {
  claimedTimings,
  localStartTimings,
  parseStartTimings,
  runnerStartedTimings,
} from '../../src/modules/tasks/start-timings.js'

const created = '2026-01-01T00:00:00.000Z'
const at = (ms: number) => Date.parse(created) + ms

describe('start timings', () => {
  it('rounds phases down and the total up, so the phases never exceed the total', () => {
    const timings = localStartTimings({
      created,
      claimedAt: at(1.9),
      jobReadyAt: at(3.8),
      startedAt: at(9.1),
      phases: { writingFiles: 0.9, preparingRepository: 2.9, spawning: 1.9 },
    })
    expect(timings).toEqual({
      queued_ms: 1,
      building_job_ms: 1,
      writing_files_ms: 0,
      preparing_repository_ms: 2,
      spawning_ms: 1,
      total_ms: 10,
    })
  })

  it('never answers a negative phase when clocks disagree', () => {
    const timings = claimedTimings(created, at(-5))
    expect(timings).toEqual({ queued_ms: 0, total_ms: 0 })
  })

  it("adds a runner's part once, when it reports the task running", () => {
    const stored = JSON.stringify(claimedTimings(created, at(4.5)))
    const started = runnerStartedTimings(stored, created, at(30.2))
    expect(started).toEqual({ queued_ms: 4, runner_ms: 26, total_ms: 31 })
    expect(runnerStartedTimings(JSON.stringify(started), created, at(50))).toBeNull()
    expect(runnerStartedTimings(null, created, at(50))).toBeNull()
  })

  it('reads only well-formed stored timings', () => {
    expect(parseStartTimings('{"queued_ms":1,"total_ms":2}')).toEqual({ queued_ms: 1, total_ms: 2 })
    expect(parseStartTimings('not json')).toBeNull()
    expect(parseStartTimings('{"queued_ms":-1,"total_ms":2}')).toBeNull()
    expect(parseStartTimings(null)).toBeNull()
  })
})
