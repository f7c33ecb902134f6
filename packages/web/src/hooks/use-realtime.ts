import { useEffect, useRef } from 'react'
import { type RealtimeListener, sharedRealtimeClient } from '../lib/realtime-client'

/**
 * Calls `listener` for every message of the shared socket while the component is mounted. The
 * socket is open while at least one component listens.
 */
export function useRealtime(listener: RealtimeListener, enabled = true) {
  const ref = useRef(listener)
  useEffect(() => {
    ref.current = listener
  })
  useEffect(() => {
    if (!enabled) return
    const client = sharedRealtimeClient()
    const unsubscribe = client.subscribe((message) => ref.current(message))
    client.start()
    return () => {
      unsubscribe()
      if (client.listenerCount === 0) client.stop()
    }
  }, [enabled])
}

/** Calls `listener` when the shared socket is open again after a drop (messages were missed). */
export function useRealtimeReconnect(listener: () => void) {
  const ref = useRef(listener)
  useEffect(() => {
    ref.current = listener
  })
  useEffect(() => sharedRealtimeClient().subscribeReconnect(() => ref.current()), [])
}
