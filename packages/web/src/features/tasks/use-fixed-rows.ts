import { type RefObject, useCallback, useLayoutEffect, useState } from 'react'

export interface FixedRows {
  /** First and last row to render (0-based, inclusive); last < first when there are none. */
  first: number
  last: number
  /** Height of all rows together, in pixels. */
  height: number
  /** Reads the scroll position again: for the element's scroll events. */
  onScroll: () => void
}

/**
 * The rows of a list whose rows all have one height that are on screen, plus `overscan` on
 * either side. Found by arithmetic on the scroll position, so its cost does not grow with the
 * number of rows: a log of a million lines lays out like one of a hundred.
 */
export function useFixedRows(
  scrollRef: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
): FixedRows {
  const [viewport, setViewport] = useState({ top: 0, height: 0 })
  const onScroll = useCallback(() => {
    const element = scrollRef.current
    if (!element) return
    const { scrollTop: top, clientHeight: height } = element
    setViewport((current) =>
      current.top === top && current.height === height ? current : { top, height },
    )
  }, [scrollRef])

  useLayoutEffect(() => {
    onScroll()
    const element = scrollRef.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(onScroll)
    observer.observe(element)
    return () => observer.disconnect()
  }, [scrollRef, onScroll])

  const height = count * rowHeight
  const top = Math.min(viewport.top, Math.max(0, height - viewport.height))
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan)
  const last = Math.min(count - 1, Math.ceil((top + viewport.height) / rowHeight) + overscan)
  return { first, last, height, onScroll }
}
