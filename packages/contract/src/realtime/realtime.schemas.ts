import { z } from 'zod'

/** Pushed on every status change of a task (including when it is queued). */
export const TaskUpdateMessage = z.object({
  type: z.literal('update'),
  task_id: z.number(),
  project_id: z.number(),
  template_id: z.number(),
  status: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  version: z.string().nullable(),
})

/** One line of a task's output. */
export const TaskLogMessage = z.object({
  type: z.literal('log'),
  task_id: z.number(),
  project_id: z.number(),
  time: z.string(),
  output: z.string(),
})

/** Messages the server sends over `/api/ws`; one JSON object per text frame. */
export const RealtimeMessage = z.discriminatedUnion('type', [TaskUpdateMessage, TaskLogMessage])
export type RealtimeMessage = z.infer<typeof RealtimeMessage>
export type TaskUpdateMessage = z.infer<typeof TaskUpdateMessage>
export type TaskLogMessage = z.infer<typeof TaskLogMessage>
