import { EventEmitter } from 'node:events'
import type { TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'

interface TaskEventMap {
  update: [TaskUpdateMessage]
  logs: [TaskLogMessage[]]
  /** The same, of tasks another server instance runs: for transports only (no alerts). */
  relayedUpdate: [TaskUpdateMessage]
  relayedLogs: [TaskLogMessage[]]
}

/** A promise while a transport is behind on what it was given; null when it keeps up. */
export type DeliveryBacklog = () => Promise<void> | null

/** What the tasks module announces; transports (the websocket) subscribe to it. */
export class TaskEvents extends EventEmitter<TaskEventMap> {
  private readonly backlogs = new Set<DeliveryBacklog>()

  constructor() {
    super()
    this.setMaxListeners(0)
  }

  /** A transport tells how far behind it is, so task output can wait for it. */
  reportBacklog(backlog: DeliveryBacklog): void {
    this.backlogs.add(backlog)
  }

  /** Settles once every transport has caught up; null when none is behind. */
  deliveryBacklog(): Promise<void> | null {
    const waits: Promise<void>[] = []
    for (const backlog of this.backlogs) {
      const wait = backlog()
      if (wait) waits.push(wait)
    }
    return waits.length === 0 ? null : Promise.all(waits).then(() => undefined)
  }
}
