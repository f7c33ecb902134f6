import Box from '@mui/material/Box'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { isAtBottom, type LogLine } from '../log-buffer'
import { AnsiLine } from './ansi-line'

/** Estimated height of one log row in pixels. */
export const LOG_ROW_HEIGHT = 22
/** Rows rendered beyond the visible ones. */
export const LOG_OVERSCAN = 100

function formatTime(time: string): string {
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString()
}

/** The task's log as a virtual list that keeps following the end while the user is there. */
export function TaskLogView({ lines, height }: { lines: LogLine[]; height: number | string }) {
  const { t } = useTranslation('tasks')
  const scrollRef = useRef<HTMLDivElement>(null)
  const follow = useRef(true)
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LOG_ROW_HEIGHT,
    overscan: LOG_OVERSCAN,
  })

  useLayoutEffect(() => {
    if (follow.current && lines.length > 0) {
      virtualizer.scrollToIndex(lines.length - 1, { align: 'end' })
    }
  }, [lines.length, virtualizer])

  return (
    <Box
      ref={scrollRef}
      data-testid="task-log"
      role="log"
      aria-label={t('log.label')}
      tabIndex={0}
      onScroll={(event) => {
        follow.current = isAtBottom(event.currentTarget)
      }}
      sx={{
        height,
        overflow: 'auto',
        bgcolor: 'grey.900',
        color: 'grey.100',
        fontFamily: 'monospace',
        fontSize: 13,
        borderRadius: 1,
      }}
    >
      {lines.length === 0 ? (
        <Box sx={{ p: 1, color: 'grey.500' }}>{t('log.empty')}</Box>
      ) : (
        <Box
          role="list"
          sx={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const line = lines[item.index]
            if (!line) return null
            return (
              <Box
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                role="listitem"
                sx={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${item.start}px)`,
                  display: 'flex',
                  gap: 1.5,
                  px: 1,
                  minHeight: LOG_ROW_HEIGHT,
                  lineHeight: `${LOG_ROW_HEIGHT}px`,
                }}
              >
                <Box component="span" sx={{ color: 'grey.500', flexShrink: 0 }}>
                  {formatTime(line.time)}
                </Box>
                <Box component="span" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  <AnsiLine text={line.output} />
                </Box>
              </Box>
            )
          })}
        </Box>
      )}
    </Box>
  )
}
