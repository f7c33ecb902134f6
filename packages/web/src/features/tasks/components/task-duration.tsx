import { elapsedSeconds, useFormat } from '../../../lib/format'
import { useNow } from '../../../lib/use-now'

/**
 * How long a task ran, or has been running: while it has started and not ended the value
 * counts up every second; '—' before it starts.
 */
export function TaskDuration({ start, end }: { start: string | null; end: string | null }) {
  const format = useFormat()
  const live = Boolean(start) && !end
  const now = useNow(live)
  if (!start) return <>—</>
  const seconds = elapsedSeconds(start, end ?? (now || Date.now()))
  return (
    <span data-live={live ? 'true' : undefined}>
      {seconds === null ? '—' : format.duration(seconds)}
    </span>
  )
}
