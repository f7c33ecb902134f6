import { readFileSync } from 'node:fs'

/** Where alerts go; a channel is on when its address (or host, or token) is set. */
export interface AlertConfig {
  email: {
    host: string
    port: number
    sender: string
    username: string
    password: string
    /** none: plain SMTP; starttls: upgrade after connecting; tls: TLS from the start. */
    security: 'none' | 'starttls' | 'tls'
  } | null
  telegram: { token: string; chat: string; apiUrl: string } | null
  slack: { url: string } | null
  teams: { url: string } | null
  rocketchat: { url: string } | null
  dingtalk: { url: string } | null
  gotify: { url: string; token: string } | null
  discord: { url: string } | null
  mattermost: { url: string } | null
  /** A JSON POST signed with HMAC-SHA256 of the body (`X-Flagman-Signature: sha256=<hex>`). */
  webhook: { url: string; secret: string } | null
}

export const TELEGRAM_API_URL = 'https://api.telegram.org'

class AlertSettingError extends Error {}

/** A setting's value, or the content of the file `<NAME>_FILE` names (for secrets). */
function setting(env: NodeJS.ProcessEnv, name: string): string {
  const direct = env[name]?.trim() ?? ''
  const file = env[`${name}_FILE`]?.trim() ?? ''
  if (direct !== '' && file !== '') {
    throw new AlertSettingError(`Invalid setting ${name}: set either ${name} or ${name}_FILE`)
  }
  if (file === '') return direct
  try {
    return readFileSync(file, 'utf8').trim()
  } catch (error) {
    throw new AlertSettingError(
      `Invalid setting ${name}_FILE: can not read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
}

function url(env: NodeJS.ProcessEnv, name: string): string {
  const value = setting(env, name)
  if (value === '') return ''
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new AlertSettingError(`Invalid setting ${name}: not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AlertSettingError(
      `Invalid setting ${name}: the URL must start with http:// or https://`,
    )
  }
  return value
}

/** Reads the `FLAGMAN_ALERT_*` settings; a malformed one fails the start with one line naming it. */
export function loadAlertConfig(env: NodeJS.ProcessEnv): AlertConfig {
  const host = setting(env, 'FLAGMAN_ALERT_EMAIL_HOST')
  const security = setting(env, 'FLAGMAN_ALERT_EMAIL_SECURITY') || 'none'
  if (security !== 'none' && security !== 'starttls' && security !== 'tls') {
    throw new AlertSettingError(
      'Invalid setting FLAGMAN_ALERT_EMAIL_SECURITY: expected none, starttls or tls',
    )
  }
  const portText = setting(env, 'FLAGMAN_ALERT_EMAIL_PORT')
  const port = portText === '' ? (security === 'tls' ? 465 : 25) : Number(portText)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new AlertSettingError('Invalid setting FLAGMAN_ALERT_EMAIL_PORT: expected a port number')
  }
  const telegramToken = setting(env, 'FLAGMAN_ALERT_TELEGRAM_TOKEN')
  const gotifyUrl = url(env, 'FLAGMAN_ALERT_GOTIFY_URL')
  const webhookUrl = url(env, 'FLAGMAN_ALERT_WEBHOOK_URL')
  const single = (name: string) => {
    const value = url(env, name)
    return value === '' ? null : { url: value }
  }
  return {
    email:
      host === ''
        ? null
        : {
            host,
            port,
            sender: setting(env, 'FLAGMAN_ALERT_EMAIL_SENDER') || 'flagman@localhost',
            username: setting(env, 'FLAGMAN_ALERT_EMAIL_USERNAME'),
            password: setting(env, 'FLAGMAN_ALERT_EMAIL_PASSWORD'),
            security,
          },
    telegram:
      telegramToken === ''
        ? null
        : {
            token: telegramToken,
            chat: setting(env, 'FLAGMAN_ALERT_TELEGRAM_CHAT'),
            apiUrl: (url(env, 'FLAGMAN_ALERT_TELEGRAM_API_URL') || TELEGRAM_API_URL).replace(
              /\/+$/,
              '',
            ),
          },
    slack: single('FLAGMAN_ALERT_SLACK_URL'),
    teams: single('FLAGMAN_ALERT_TEAMS_URL'),
    rocketchat: single('FLAGMAN_ALERT_ROCKETCHAT_URL'),
    dingtalk: single('FLAGMAN_ALERT_DINGTALK_URL'),
    gotify:
      gotifyUrl === ''
        ? null
        : { url: gotifyUrl, token: setting(env, 'FLAGMAN_ALERT_GOTIFY_TOKEN') },
    discord: single('FLAGMAN_ALERT_DISCORD_URL'),
    mattermost: single('FLAGMAN_ALERT_MATTERMOST_URL'),
    webhook:
      webhookUrl === ''
        ? null
        : { url: webhookUrl, secret: setting(env, 'FLAGMAN_ALERT_WEBHOOK_SECRET') },
  }
}
