import { RealtimeMessage } from '@flagman/contract'

/** Delay before the socket connects again after it closed on its own. */
export const RECONNECT_DELAY_MS = 2000

export type RealtimeListener = (message: RealtimeMessage) => void

export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/api/ws`
}

/**
 * The console's one socket to `/api/ws`. Every text frame is one JSON message; frames that are not
 * a known message are ignored. When the socket closes it reconnects after RECONNECT_DELAY_MS,
 * unless it was closed with `stop()`.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private stopped = true
  private readonly listeners = new Set<RealtimeListener>()
  private readonly reconnectListeners = new Set<() => void>()
  /** A socket was open before: the next open follows a gap in which messages were missed. */
  private hadOpened = false

  constructor(private readonly url: () => string = () => realtimeUrl()) {}

  subscribe(listener: RealtimeListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /**
   * Called when the socket is open again after it closed on its own: messages sent meanwhile
   * were missed, so what is shown from them should be read again.
   */
  subscribeReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener)
    return () => {
      this.reconnectListeners.delete(listener)
    }
  }

  get listenerCount(): number {
    return this.listeners.size
  }

  get running(): boolean {
    return !this.stopped
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.connect()
  }

  stop(): void {
    this.stopped = true
    this.hadOpened = false
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const socket = this.socket
    this.socket = null
    if (socket) {
      socket.onclose = null
      socket.onmessage = null
      socket.close()
    }
  }

  private connect(): void {
    let socket: WebSocket
    try {
      socket = new WebSocket(this.url())
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = socket
    socket.onopen = () => {
      if (this.hadOpened) for (const listener of [...this.reconnectListeners]) listener()
      this.hadOpened = true
    }
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return
      let data: unknown
      try {
        data = JSON.parse(event.data)
      } catch {
        return
      }
      const parsed = RealtimeMessage.safeParse(data)
      if (!parsed.success) return
      for (const listener of [...this.listeners]) listener(parsed.data)
    }
    socket.onclose = () => {
      if (this.socket === socket) this.socket = null
      this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.timer = null
      if (!this.stopped) this.connect()
    }, RECONNECT_DELAY_MS)
  }
}

let shared: RealtimeClient | null = null

/** The client shared by the whole console; created on first use. */
export function sharedRealtimeClient(): RealtimeClient {
  shared ??= new RealtimeClient()
  return shared
}
