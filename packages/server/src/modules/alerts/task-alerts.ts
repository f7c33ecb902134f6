import type { Db } from '@flagman/db'
import type { AlertConfig } from './alert.config.js'
import { emailRecipients, loadTaskAlert } from './alert-facts.js'
import { chatPayload, emailMessage, isAlertingStatus } from './alert-message.js'
import type { NewAlert } from './alert-outbox.js'
import { configuredChannels } from './alert-senders.js'

/**
 * The alerts a task's new status gives (reference rules): nothing unless the project's
 * switch is on; email on error only, one per member or administrator who wants alerts;
 * chat channels on success, error and waiting for confirmation, except success when the
 * template suppresses it; Telegram only with a chat (the project's, else the server's).
 */
export async function alertsForStatus(
  db: Db,
  config: AlertConfig,
  taskId: number,
  status: string,
  base: string,
): Promise<NewAlert[]> {
  if (!isAlertingStatus(status)) return []
  const channels = configuredChannels(config)
  if (channels.length === 0) return []
  const context = await loadTaskAlert(db, taskId, status, base)
  if (!context || !context.projectAlert) return []
  const { facts } = context
  const alerts: NewAlert[] = []
  const add = (channel: NewAlert['channel'], payload: unknown, recipient: string | null = null) =>
    alerts.push({
      taskId,
      projectId: facts.projectId,
      channel,
      recipient,
      payload: JSON.stringify(payload),
    })
  for (const channel of channels) {
    if (channel === 'email') {
      if (status !== 'error') continue
      const message = emailMessage(facts)
      for (const to of await emailRecipients(db, facts.projectId)) add('email', message, to)
      continue
    }
    if (status === 'success' && context.suppressSuccess) continue
    if (channel === 'telegram') {
      const chat = context.alertChat || config.telegram?.chat || ''
      if (chat === '') continue
      add(channel, chatPayload(channel, facts, chat))
      continue
    }
    add(channel, chatPayload(channel, facts))
  }
  return alerts
}
