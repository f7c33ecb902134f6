import { createHmac } from 'node:crypto'
import type { AlertChannel } from '@flagman/contract'
import nodemailer from 'nodemailer'
import type { AlertConfig } from './alert.config.js'
import { CHANNEL_LABELS, type EmailMessage } from './alert-message.js'

/** Longest one attempt may take; a receiver that hangs is given up on after this. */
export const SEND_TIMEOUT_MS = 10_000

/** One alert as stored in the outbox: the rendered message and, for email, the address. */
export interface Delivery {
  channel: AlertChannel
  recipient: string | null
  /** JSON: the chat body, or the email's subject and HTML. */
  payload: string
}

export interface SendOutcome {
  ok: boolean
  /** The task-log line: "Sent successfully …" or "Can't send …"; never a secret. */
  line: string
  /** Short reason for the outbox row; null when sent. */
  error: string | null
}

/** Answers each chat service gives on success. */
const SUCCESS_CODES: Partial<Record<AlertChannel, number[]>> = {
  teams: [200, 202],
  discord: [200, 204],
}

/** The channels switched on by the settings, in a fixed order. */
export function configuredChannels(config: AlertConfig): AlertChannel[] {
  return (Object.keys(CHANNEL_LABELS) as AlertChannel[]).filter((c) => config[c] !== null)
}

/** Every secret value of the settings, to keep out of anything written or answered. */
function secretsOf(config: AlertConfig): string[] {
  const values = [
    config.email?.password,
    config.email?.username,
    config.telegram?.token,
    config.slack?.url,
    config.teams?.url,
    config.rocketchat?.url,
    config.dingtalk?.url,
    config.gotify?.url,
    config.gotify?.token,
    config.discord?.url,
    config.mattermost?.url,
    config.webhook?.url,
    config.webhook?.secret,
  ]
  return values.filter((v): v is string => typeof v === 'string' && v.length >= 4)
}

/** Hides any secret of the settings that a message might echo (belt and braces). */
export function redact(config: AlertConfig, text: string): string {
  let out = text
  for (const secret of secretsOf(config)) out = out.split(secret).join('***')
  return out
}

/** The request a chat alert makes; its URL may carry a token and is never shown. */
function chatRequest(
  config: AlertConfig,
  channel: Exclude<AlertChannel, 'email'>,
  body: string,
): { url: string; headers: Record<string, string> } | string {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  switch (channel) {
    case 'telegram': {
      const c = config.telegram
      if (!c) return 'not configured'
      return { url: `${c.apiUrl}/bot${c.token}/sendMessage`, headers }
    }
    case 'gotify': {
      const c = config.gotify
      if (!c) return 'not configured'
      const url = new URL(`${c.url.replace(/\/+$/, '')}/message`)
      url.searchParams.set('token', c.token)
      return { url: url.toString(), headers }
    }
    case 'webhook': {
      const c = config.webhook
      if (!c) return 'not configured'
      if (c.secret !== '') {
        const digest = createHmac('sha256', c.secret).update(body).digest('hex')
        headers['X-Flagman-Signature'] = `sha256=${digest}`
      }
      const event = (JSON.parse(body) as { event?: unknown }).event
      if (typeof event === 'string') headers['X-Flagman-Event'] = event
      return { url: c.url, headers }
    }
    default: {
      const c = config[channel]
      return c ? { url: c.url, headers } : 'not configured'
    }
  }
}

/** A reason that names what went wrong without echoing an address. */
function describeFailure(error: unknown): string {
  const e = error as {
    name?: string
    code?: string
    originalCode?: string
    cause?: { code?: string; name?: string }
  }
  // The mail library keeps the network's own code beside its generic ESOCKET.
  const code = e?.cause?.code ?? e?.originalCode ?? e?.code
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') {
    return `no answer within ${SEND_TIMEOUT_MS / 1000} seconds`
  }
  if (e?.name === 'AbortError') return 'cancelled'
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found'
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed'
    case 'ETIMEDOUT':
    case 'ETIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `no answer within ${SEND_TIMEOUT_MS / 1000} seconds`
    case 'EAUTH':
      return 'authentication failed'
    case 'ETLS':
      return 'TLS negotiation failed'
    case 'EENVELOPE':
      return 'recipient refused'
    default:
      return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'request failed'
  }
}

const sent = (label: string): SendOutcome => ({
  ok: true,
  line: `Sent successfully ${label} alert`,
  error: null,
})
const refused = (label: string, status: number): SendOutcome => ({
  ok: false,
  line: `Can't send ${label} alert! Response code: ${status}`,
  error: `Response code: ${status}`,
})
const failed = (label: string, reason: string): SendOutcome => ({
  ok: false,
  line: `Can't send ${label} alert! Error: ${reason}`,
  error: reason,
})

async function postChat(
  config: AlertConfig,
  channel: Exclude<AlertChannel, 'email'>,
  body: string,
  signal: AbortSignal,
): Promise<SendOutcome> {
  const label = CHANNEL_LABELS[channel]
  const request = chatRequest(config, channel, body)
  if (typeof request === 'string') return failed(label, request)
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body,
      signal,
      redirect: 'manual',
    })
    // The answer is not needed; reading it could hang as long as the request did.
    await response.body?.cancel().catch(() => {})
    const ok =
      channel === 'webhook'
        ? response.status >= 200 && response.status < 300
        : (SUCCESS_CODES[channel] ?? [200]).includes(response.status)
    return ok ? sent(label) : refused(label, response.status)
  } catch (error) {
    return failed(label, describeFailure(error))
  }
}

async function sendEmail(
  config: AlertConfig,
  to: string | null,
  message: EmailMessage,
  signal: AbortSignal,
): Promise<SendOutcome> {
  const label = CHANNEL_LABELS.email
  const c = config.email
  if (!c) return failed(label, 'not configured')
  if (!to) return failed(label, 'no email address')
  const transport = nodemailer.createTransport({
    host: c.host,
    port: c.port,
    secure: c.security === 'tls',
    requireTLS: c.security === 'starttls',
    // Plain means plain: no upgrade is attempted even when the server offers one.
    ignoreTLS: c.security === 'none',
    auth: c.username !== '' ? { user: c.username, pass: c.password } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    tls: { minVersion: 'TLSv1.2' },
  })
  // The attempt ends when the signal fires, whatever the connection is doing; the
  // transport's own timeouts close that connection soon after.
  let onAbort = () => {}
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  aborted.catch(() => {})
  try {
    await Promise.race([
      transport.sendMail({
        from: c.sender,
        to,
        subject: message.subject,
        html: message.html,
        date: new Date(),
      }),
      aborted,
    ])
    return sent(label)
  } catch (error) {
    if (signal.aborted) return failed(label, describeFailure(signal.reason))
    const code = (error as { responseCode?: unknown }).responseCode
    return typeof code === 'number' ? refused(label, code) : failed(label, describeFailure(error))
  } finally {
    signal.removeEventListener('abort', onAbort)
    transport.close()
  }
}

/**
 * Makes one attempt at one alert, within `SEND_TIMEOUT_MS` (or sooner when `cancel` fires).
 * Never throws; the outcome's texts name the channel only, never an address or a token.
 */
export async function deliver(
  config: AlertConfig,
  delivery: Delivery,
  cancel?: AbortSignal,
): Promise<SendOutcome> {
  const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS)
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout
  let outcome: SendOutcome
  try {
    outcome =
      delivery.channel === 'email'
        ? await sendEmail(
            config,
            delivery.recipient,
            JSON.parse(delivery.payload) as EmailMessage,
            signal,
          )
        : await postChat(config, delivery.channel, delivery.payload, signal)
  } catch (error) {
    outcome = failed(CHANNEL_LABELS[delivery.channel], describeFailure(error))
  }
  return {
    ok: outcome.ok,
    line: redact(config, outcome.line),
    error: outcome.error === null ? null : redact(config, outcome.error),
  }
}
