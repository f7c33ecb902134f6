import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LogLine } from '../log-buffer'
import { LOG_ROW_HEIGHT, TaskLogView } from './task-log-view'

const VIEWPORT = 440
/** Lines last handed to the view: the log's content height in this layout-less DOM. */
let shownLines = 0

/** A log of `count` lines as the view reads it: a count and the line of each row. */
function rows(count: number): { count: number; lineAt: (index: number) => LogLine } {
  shownLines = count
  return {
    count,
    lineAt: (index) => ({ time: '2026-01-01T00:00:00Z', output: `line ${index + 1}` }),
  }
}

describe('TaskLogView', () => {
  let scrollTo: ReturnType<typeof vi.fn>
  beforeEach(() => {
    // The list corrects its scroll position on animation frames: the test runs them itself.
    vi.useFakeTimers()
    // jsdom lays nothing out: the log's viewport and content heights are given here, and
    // scrolling only moves scrollTop.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT)
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800)
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.getAttribute('role') === 'listitem' ? LOG_ROW_HEIGHT : 0
    })
    vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
      return this.getAttribute('role') === 'log' ? shownLines * LOG_ROW_HEIGHT : 0
    })
    scrollTo = vi.fn(function (this: Element, options: ScrollToOptions) {
      if (typeof options.top === 'number') this.scrollTop = options.top
    })
    Element.prototype.scrollTo = scrollTo as unknown as Element['scrollTo']
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  const log = () => screen.getByRole('log')
  /** Lets the list settle: runs the animation frames and timers of its scroll corrections. */
  const settle = () => act(() => vi.advanceTimersByTimeAsync(100))
  /** A scroll the view makes itself fires no event in this DOM; the list learns of it here. */
  const scrolled = async () => {
    fireEvent.scroll(log())
    await settle()
  }
  const endOffset = (count: number) => count * LOG_ROW_HEIGHT - VIEWPORT

  it('follows new lines while the user is at the bottom', async () => {
    const { rerender } = render(<TaskLogView {...rows(1000)} height={VIEWPORT} />)
    await settle()
    expect(log().scrollTop).toBeGreaterThanOrEqual(endOffset(1000) - LOG_ROW_HEIGHT)
    await scrolled()
    rerender(<TaskLogView {...rows(2000)} height={VIEWPORT} />)
    await settle()
    expect(log().scrollTop).toBeGreaterThanOrEqual(endOffset(2000) - LOG_ROW_HEIGHT)
    await scrolled()
    expect(screen.getByText('line 2000')).toBeInTheDocument()
  })

  it('stays where the user scrolled to when new lines arrive', async () => {
    const { rerender } = render(<TaskLogView {...rows(1000)} height={VIEWPORT} />)
    await settle()
    await scrolled()
    log().scrollTop = 0
    await scrolled()
    scrollTo.mockClear()
    rerender(<TaskLogView {...rows(2000)} height={VIEWPORT} />)
    await settle()
    expect(log().scrollTop).toBe(0)
    expect(scrollTo).not.toHaveBeenCalled()
    expect(screen.queryByText('line 2000')).not.toBeInTheDocument()
    expect(screen.getByText('line 1')).toBeInTheDocument()

    // Back at the bottom, the log follows again.
    log().scrollTop = endOffset(2000)
    await scrolled()
    rerender(<TaskLogView {...rows(3000)} height={VIEWPORT} />)
    await settle()
    expect(log().scrollTop).toBeGreaterThanOrEqual(endOffset(3000) - LOG_ROW_HEIGHT)
    await scrolled()
    expect(screen.getByText('line 3000')).toBeInTheDocument()
  })
})
