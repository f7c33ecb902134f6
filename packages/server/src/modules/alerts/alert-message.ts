import type { AlertChannel } from '@flagman/contract'

/** Task statuses that alert; a task someone stopped does not (the chat would only echo them). */
export const ALERTING_STATUSES = ['success', 'error', 'waiting_confirmation'] as const
export type AlertingStatus = (typeof ALERTING_STATUSES)[number]

export const isAlertingStatus = (status: string): status is AlertingStatus =>
  (ALERTING_STATUSES as readonly string[]).includes(status)

/** What every message says about the task. */
export interface AlertFacts {
  /** The task's status, or `test` for a test alert. */
  status: string
  taskId: number
  templateId: number
  templateName: string
  projectId: number
  projectName: string
  /** The starting user's name, or `—`. */
  author: string
  version: string
  /** The task's message. */
  description: string
  url: string
  time: string
}

/** The message an email alert carries; the recipient travels beside it. */
export interface EmailMessage {
  subject: string
  html: string
}

/** How log lines and results name each channel. */
export const CHANNEL_LABELS: Record<AlertChannel, string> = {
  email: 'email',
  telegram: 'telegram',
  slack: 'slack',
  teams: 'microsoft teams',
  rocketchat: 'rocketchat',
  dingtalk: 'dingtalk',
  gotify: 'gotify',
  discord: 'discord',
  mattermost: 'mattermost',
  webhook: 'webhook',
}

const RESULT_EMOJI: Record<string, string> = {
  success: '✅',
  error: '❌',
  stopped: '⏹️',
  waiting_confirmation: '⚠️',
  test: '🔔',
}

/** Emoji and upper-case status with no space between: `❌ERROR`. */
export function resultOf(status: string): string {
  return `${RESULT_EMOJI[status] ?? ''}${status.toUpperCase()}`
}

/** Colours by status: Rocket.Chat's (also used by Mattermost and Discord). */
const HEX_COLOURS: Record<string, string> = {
  success: '#00EE00',
  error: '#EE0000',
  running: '#333CFF',
  waiting_confirmation: '#FFFC33',
  stopping: '#BEBEBE',
  stopped: '#5B5B5B',
  test: '#333CFF',
}

function hexColour(status: string): string {
  return HEX_COLOURS[status] ?? '#BEBEBE'
}

/** Slack names its two main colours; the others are the hex ones. */
function slackColour(status: string): string {
  if (status === 'success') return 'good'
  if (status === 'error') return 'danger'
  return hexColour(status)
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

export function emailMessage(facts: AlertFacts): EmailMessage {
  const url = escapeHtml(facts.url)
  const name = escapeHtml(facts.templateName)
  if (facts.status === 'test') {
    return {
      subject: `Test alert of project '${facts.projectName}'`,
      html:
        `<p>This is a test alert of project '${escapeHtml(facts.projectName)}'. ` +
        `Alerts of its tasks will reach this address.</p><p><a href="${url}">${url}</a></p>`,
    }
  }
  return {
    subject: `Task '${facts.templateName}' failed`,
    html:
      `<p>Task ${facts.taskId} with template '${name}' has failed!</p>` +
      `<p>Task log: <a href="${url}">${url}</a></p>`,
  }
}

/** Telegram's text in its HTML mode: only `<`, `>` and `&` need escaping. */
const telegramText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

type Json = Record<string, unknown>

/** The JSON body each chat channel is sent (Telegram's with its chat). */
export function chatPayload(
  channel: Exclude<AlertChannel, 'email'>,
  facts: AlertFacts,
  chat = '',
): Json {
  const result = resultOf(facts.status)
  const title = `Task: ${facts.templateName}`
  const summary = `execution ID #${facts.taskId}, status: ${result}!`
  switch (channel) {
    case 'telegram':
      return {
        chat_id: chat,
        parse_mode: 'HTML',
        text:
          `<code>${telegramText(facts.templateName)}</code>\n` +
          `#${facts.taskId} <b>${result}</b> <code>${telegramText(facts.version)}</code> ` +
          `${telegramText(facts.description)}\n` +
          `by ${telegramText(facts.author)}\n${telegramText(facts.url)}`,
      }
    case 'slack':
    case 'rocketchat':
    case 'mattermost':
      return {
        attachments: [
          {
            title,
            title_link: facts.url,
            text: summary,
            color: channel === 'slack' ? slackColour(facts.status) : hexColour(facts.status),
            mrkdwn_in: ['text'],
            fields: [
              { title: 'Author', value: facts.author, short: true },
              { title: 'Version', value: facts.version, short: true },
            ],
          },
        ],
      }
    case 'teams':
      return {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                {
                  type: 'TextBlock',
                  size: 'Medium',
                  weight: 'Bolder',
                  text: `Ansible Task Template Execution by: ${facts.author}`,
                },
                {
                  type: 'FactSet',
                  facts: [
                    { title: 'Task:', value: facts.templateName },
                    { title: 'Status:', value: result },
                    { title: 'Task ID:', value: String(facts.taskId) },
                  ],
                },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'Task URL', url: facts.url }],
            },
          },
        ],
      }
    case 'dingtalk':
      return {
        msgtype: 'markdown',
        markdown: {
          title,
          text:
            `### ${title}\n\n` +
            `Execution #: ${facts.taskId}\n\nStatus: ${result}\n\n` +
            `Author: ${facts.author}\n\nVersion: ${facts.version}\n\n[Task Link](${facts.url})`,
        },
      }
    case 'gotify':
      return {
        title,
        message:
          `Execution ID: #${facts.taskId}\n\nStatus: ${result}\n\n` +
          `Author: ${facts.author}\n\nVersion: ${facts.version}\n\n[Task Link](${facts.url})`,
        priority: facts.status === 'error' ? 8 : 5,
        extras: {
          'client::display': { contentType: 'text/markdown' },
          'client::notification': { click: { url: facts.url } },
        },
      }
    case 'discord':
      return {
        embeds: [
          {
            title,
            url: facts.url,
            description: summary,
            color: Number.parseInt(hexColour(facts.status).slice(1), 16),
            fields: [
              { name: 'Author', value: facts.author, inline: true },
              { name: 'Version', value: facts.version || '—', inline: true },
            ],
            timestamp: facts.time,
          },
        ],
      }
    case 'webhook':
      return webhookBody(facts)
  }
}

/**
 * The generic webhook's body (documented in the README): `event` is `task.<status>` or
 * `test`; the signature header covers these exact bytes.
 */
export function webhookBody(facts: AlertFacts): Json {
  return {
    event: facts.status === 'test' ? 'test' : `task.${facts.status}`,
    task_id: facts.taskId,
    status: facts.status,
    result: resultOf(facts.status),
    template: { id: facts.templateId, name: facts.templateName },
    project: { id: facts.projectId, name: facts.projectName },
    author: facts.author,
    version: facts.version,
    message: facts.description,
    url: facts.url,
    time: facts.time,
  }
}
