import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAtBottom, LOG_FLUSH_MS, LogBuffer, mergeLogLines } from './log-buffer'

describe('LogBuffer', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('appends the buffered lines in one batch every 500 ms', () => {
    const onFlush = vi.fn()
    const buffer = new LogBuffer(onFlush)
    buffer.start()
    buffer.push({ time: '1', output: 'a' })
    buffer.push({ time: '2', output: 'b' })
    vi.advanceTimersByTime(LOG_FLUSH_MS - 1)
    expect(onFlush).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onFlush).toHaveBeenCalledTimes(1)
    expect(onFlush).toHaveBeenCalledWith([
      { time: '1', output: 'a' },
      { time: '2', output: 'b' },
    ])
    vi.advanceTimersByTime(LOG_FLUSH_MS * 3)
    expect(onFlush).toHaveBeenCalledTimes(1)
    expect(LOG_FLUSH_MS).toBe(500)
    buffer.stop()
  })

  it('drops pending lines when stopped', () => {
    const onFlush = vi.fn()
    const buffer = new LogBuffer(onFlush)
    buffer.start()
    buffer.push({ time: '1', output: 'a' })
    buffer.stop()
    vi.advanceTimersByTime(LOG_FLUSH_MS * 2)
    expect(onFlush).not.toHaveBeenCalled()
  })
})

describe('isAtBottom', () => {
  it('follows only when the view is scrolled to the end', () => {
    expect(isAtBottom({ scrollTop: 780, scrollHeight: 1000, clientHeight: 220 })).toBe(true)
    expect(isAtBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 220 })).toBe(false)
    expect(isAtBottom({ scrollTop: 0, scrollHeight: 100, clientHeight: 220 })).toBe(true)
  })
})

describe('mergeLogLines', () => {
  const at = (time: string, output: string) => ({ time, output })

  it('keeps live lines newer than the stored log and drops older ones', () => {
    const stored = [at('t1', 'a'), at('t2', 'b')]
    const live = [at('t1', 'a'), at('t2', 'b'), at('t3', 'c')]
    expect(mergeLogLines(stored, live)).toEqual([...stored, at('t3', 'c')])
    expect(mergeLogLines([], live)).toEqual(live)
  })

  it('keeps a live line printed in the same millisecond as the last stored one', () => {
    const stored = [at('t1', 'a'), at('t2', 'b')]
    // 'c' was printed in the same millisecond as 'b' but was not stored yet when read.
    const live = [at('t2', 'b'), at('t2', 'c'), at('t3', 'd')]
    expect(mergeLogLines(stored, live)).toEqual([...stored, at('t2', 'c'), at('t3', 'd')])
  })

  it('counts repeated lines of one millisecond one by one', () => {
    const stored = [at('t1', 'x')]
    const live = [at('t1', 'x'), at('t1', 'x')]
    expect(mergeLogLines(stored, live)).toEqual([at('t1', 'x'), at('t1', 'x')])
  })
})
