import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RECONNECT_DELAY_MS, RealtimeClient } from './realtime-client'

class FakeSocket {
  static instances: FakeSocket[] = []
  onmessage: ((event: MessageEvent) => void) | null = null
  onclose: (() => void) | null = null
  onopen: (() => void) | null = null
  closed = false
  constructor(public url: string) {
    FakeSocket.instances.push(this)
  }
  close() {
    this.closed = true
  }
  receive(data: unknown) {
    this.onmessage?.({
      data: typeof data === 'string' ? data : JSON.stringify(data),
    } as MessageEvent)
  }
  drop() {
    this.onclose?.()
  }
  open() {
    this.onopen?.()
  }
}

const update = {
  type: 'update',
  task_id: 3,
  project_id: 1,
  template_id: 2,
  status: 'running',
  start: null,
  end: null,
  version: null,
}

describe('RealtimeClient', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    FakeSocket.instances = []
    vi.stubGlobal('WebSocket', FakeSocket)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('hands every known message to the listeners and ignores the rest', () => {
    const client = new RealtimeClient(() => 'ws://host/api/ws')
    const listener = vi.fn()
    client.subscribe(listener)
    client.start()
    const socket = FakeSocket.instances[0]!
    expect(socket.url).toBe('ws://host/api/ws')
    socket.receive(update)
    socket.receive('not json')
    socket.receive({ type: 'other' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith(update)
    client.stop()
  })

  it('reconnects 2000 ms after the socket closed', () => {
    const client = new RealtimeClient(() => 'ws://host/api/ws')
    client.start()
    FakeSocket.instances[0]!.drop()
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1)
    expect(FakeSocket.instances).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.instances).toHaveLength(2)
    expect(RECONNECT_DELAY_MS).toBe(2000)
    client.stop()
  })

  it('does not reconnect after being stopped on purpose', () => {
    const client = new RealtimeClient(() => 'ws://host/api/ws')
    client.start()
    const socket = FakeSocket.instances[0]!
    client.stop()
    expect(socket.closed).toBe(true)
    socket.drop()
    vi.advanceTimersByTime(10_000)
    expect(FakeSocket.instances).toHaveLength(1)
  })

  it('tells its reconnect listeners when the socket opens again after a drop', () => {
    const client = new RealtimeClient(() => 'ws://host/api/ws')
    const reconnected = vi.fn()
    client.subscribeReconnect(reconnected)
    client.start()
    FakeSocket.instances[0]!.open()
    expect(reconnected).not.toHaveBeenCalled()
    FakeSocket.instances[0]!.drop()
    vi.advanceTimersByTime(RECONNECT_DELAY_MS)
    FakeSocket.instances[1]!.open()
    expect(reconnected).toHaveBeenCalledTimes(1)
    client.stop()
  })
})
