import { alertRoutes, type TestAlertChannelResult } from '@flagman/contract'
import { nowIso } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import { NotFoundError } from '../../platform/errors.js'
import { mount } from '../../platform/router.js'
import type { WebBase } from './alert-facts.js'
import { chatPayload, emailMessage, type AlertFacts } from './alert-message.js'
import { configuredChannels, deliver, type Delivery } from './alert-senders.js'

/**
 * The test alert: a message to every configured channel right away (not through the outbox,
 * so the answer says what each channel did), each within the send timeout. Email goes to the
 * caller's own address, Telegram to the project's chat or the server's.
 */
export function alertsRoutes(app: FastifyInstance, base: WebBase): void {
  mount(app, alertRoutes.test, async ({ params, actor, db, config }) => {
    const project = await db.kysely
      .selectFrom('project')
      .select(['id', 'name', 'alert_chat'])
      .where('id', '=', params.project_id)
      .executeTakeFirst()
    if (!project) throw new NotFoundError()
    const facts: AlertFacts = {
      status: 'test',
      taskId: 0,
      templateId: 0,
      templateName: 'Test alert',
      projectId: project.id,
      projectName: project.name,
      author: actor.name || actor.username,
      version: '',
      description: `Test alert of project '${project.name}'`,
      url: `${base()}/project/${project.id}/history`,
      time: nowIso(),
    }
    const alerts = config.alerts
    const channels: TestAlertChannelResult[] = await Promise.all(
      configuredChannels(alerts).map(async (channel) => {
        let delivery: Delivery
        if (channel === 'email') {
          if (actor.email.trim() === '') {
            return {
              channel,
              ok: false,
              message: "Can't send email alert! Error: you have no email address",
            }
          }
          delivery = {
            channel,
            recipient: actor.email,
            payload: JSON.stringify(emailMessage(facts)),
          }
        } else if (channel === 'telegram') {
          const chat = project.alert_chat?.trim() || alerts.telegram?.chat || ''
          if (chat === '') {
            return {
              channel,
              ok: false,
              message:
                "Can't send telegram alert! Error: no chat id (set the project's chat id or FLAGMAN_ALERT_TELEGRAM_CHAT)",
            }
          }
          delivery = {
            channel,
            recipient: null,
            payload: JSON.stringify(chatPayload(channel, facts, chat)),
          }
        } else {
          delivery = {
            channel,
            recipient: null,
            payload: JSON.stringify(chatPayload(channel, facts)),
          }
        }
        const outcome = await deliver(alerts, delivery)
        return { channel, ok: outcome.ok, message: outcome.line }
      }),
    )
    return { channels }
  })
}
