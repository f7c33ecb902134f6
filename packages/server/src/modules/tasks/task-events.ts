import { EventEmitter } from 'node:events'
import type { TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'

interface TaskEventMap {
  update: [TaskUpdateMessage]
  logs: [TaskLogMessage[]]
}

/** What the tasks module announces; transports (the websocket) subscribe to it. */
export class TaskEvents extends EventEmitter<TaskEventMap> {
  constructor() {
    super()
    this.setMaxListeners(0)
  }
}
