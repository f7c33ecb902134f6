import { useCallback, useRef } from 'react'
import { LOG_ROW_HEIGHT } from './task-log-view'

/**
 * Scrolls the log view inside the returned container to a line (1-based). Every row has the
 * same height, so a line's place is known without rendering it; the view then loads and
 * draws the rows around it.
 */
export function useJumpToLogLine() {
  const containerRef = useRef<HTMLDivElement>(null)
  const jump = useCallback((line: number) => {
    const view = containerRef.current?.querySelector<HTMLElement>('[role="log"]')
    if (!view) return
    const top = (line - 1) * LOG_ROW_HEIGHT - view.clientHeight / 2 + LOG_ROW_HEIGHT / 2
    view.scrollTop = Math.max(0, top)
    view.focus()
  }, [])
  return { containerRef, jump }
}
