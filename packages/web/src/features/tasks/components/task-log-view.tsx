import Box from '@mui/material/Box'
import { memo, useEffect, useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { isAtBottom, type LogLine } from '../log-buffer'
import { useFixedRows } from '../use-fixed-rows'
import { AnsiLine } from './ansi-line'

/**
 * Height of one log row in pixels. Rows do not wrap (long lines scroll sideways), so every row
 * has this height and none has to be measured in the page.
 */
export const LOG_ROW_HEIGHT = 22
/** Rows rendered beyond the visible ones. */
export const LOG_OVERSCAN = 100

// One formatter for every row: building one per call is slow on long logs.
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, {
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
})

function formatTime(time: string): string {
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? '' : TIME_FORMAT.format(date)
}

/** One row; rows already on screen are not rendered again when lines are appended. */
const LogRow = memo(function LogRow({
  index,
  start,
  line,
}: {
  index: number
  start: number
  /** Undefined while the row's page loads. */
  line: LogLine | undefined
}) {
  return (
    <div
      data-index={index}
      data-time={line ? formatTime(line.time) : ''}
      role="listitem"
      aria-busy={line ? undefined : true}
      className="log-row"
      style={{ transform: `translateY(${start}px)` }}
    >
      {line ? <AnsiLine text={line.output} /> : null}
    </div>
  )
})

/**
 * The task's log as a virtual list that keeps following the end while the user is there. It
 * holds no lines itself: `lineAt` answers each row on screen, and `onRows` is told which rows
 * those are, so lines can be loaded page by page.
 */
export function TaskLogView({
  count,
  lineAt,
  onRows,
  height,
}: {
  count: number
  lineAt: (index: number) => LogLine | undefined
  onRows?: (first: number, last: number) => void
  height: number | string
}) {
  const { t } = useTranslation('tasks')
  const scrollRef = useRef<HTMLDivElement>(null)
  const follow = useRef(true)
  const rows = useFixedRows(scrollRef, count, LOG_ROW_HEIGHT, LOG_OVERSCAN)
  const { first, last, onScroll } = rows

  // Following the end sets the position past the end, which the browser clamps: no layout is
  // read here, and the rows are read again from the scroll event before it paints.
  useLayoutEffect(() => {
    const element = scrollRef.current
    if (follow.current && element && count > 0) {
      element.scrollTop = count * LOG_ROW_HEIGHT
      onScroll()
    }
  }, [count, onScroll])

  useEffect(() => {
    if (count > 0) onRows?.(first, last)
  }, [onRows, first, last, count])

  const shown: number[] = []
  for (let index = first; index <= last; index += 1) shown.push(index)

  return (
    <Box
      ref={scrollRef}
      data-testid="task-log"
      role="log"
      aria-label={t('log.label')}
      tabIndex={0}
      onScroll={(event) => {
        follow.current = isAtBottom(event.currentTarget)
        onScroll()
      }}
      sx={{
        height,
        overflow: 'auto',
        bgcolor: 'grey.900',
        color: 'grey.100',
        fontFamily: 'monospace',
        fontSize: 13,
        borderRadius: 1,
        // Rows are plain elements styled from here: one style rule for all of them, whatever
        // their number, instead of one generated rule per row and position.
        // One element per plain line: the time is drawn from the row's data-time attribute.
        '& .log-row': {
          position: 'absolute',
          top: 0,
          left: 0,
          minWidth: '100%',
          px: 1,
          height: LOG_ROW_HEIGHT,
          lineHeight: `${LOG_ROW_HEIGHT}px`,
          whiteSpace: 'pre',
        },
        '& .log-row::before': {
          content: 'attr(data-time)',
          display: 'inline-block',
          mr: 1.5,
          color: 'grey.500',
        },
      }}
    >
      {count === 0 ? (
        <Box sx={{ p: 1, color: 'grey.500' }}>{t('log.empty')}</Box>
      ) : (
        <div role="list" style={{ height: rows.height, position: 'relative', minWidth: '100%' }}>
          {shown.map((index) => (
            <LogRow key={index} index={index} start={index * LOG_ROW_HEIGHT} line={lineAt(index)} />
          ))}
        </div>
      )}
    </Box>
  )
}
