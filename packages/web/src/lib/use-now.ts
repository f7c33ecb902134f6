import { useSyncExternalStore } from 'react'

/**
 * One clock for every live duration on the page: it ticks once a second while at least one
 * component needs it and stops when none does, so a page with nothing running costs nothing.
 */
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null
let now = Date.now()

export const CLOCK_TICK_MS = 1000

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === null) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const notify of listeners) notify()
    }, CLOCK_TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }
}

const noSubscription = () => () => {}

/** The current time, updated every second while `live`; while not live, it does not tick. */
export function useNow(live: boolean): number {
  return useSyncExternalStore(
    live ? subscribe : noSubscription,
    () => (live ? now : 0),
    () => 0,
  )
}
