import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAtBottom, LOG_FLUSH_MS, LogBuffer } from './log-buffer'

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
