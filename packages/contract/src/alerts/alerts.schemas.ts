import { z } from 'zod'

export const ALERT_CHANNELS = [
  'email',
  'telegram',
  'slack',
  'teams',
  'rocketchat',
  'dingtalk',
  'gotify',
  'discord',
  'mattermost',
  'webhook',
] as const
export const AlertChannel = z.enum(ALERT_CHANNELS)
export type AlertChannel = z.infer<typeof AlertChannel>

/** What one channel did with a test alert. */
export const TestAlertChannelResult = z.object({
  channel: AlertChannel,
  ok: z.boolean(),
  /** "Sent successfully …", or why not (never a secret or a token-bearing URL). */
  message: z.string(),
})
export type TestAlertChannelResult = z.infer<typeof TestAlertChannelResult>

/** Result of sending a test alert to every configured channel; empty when none is configured. */
export const TestAlertResult = z.object({ channels: z.array(TestAlertChannelResult) })
export type TestAlertResult = z.infer<typeof TestAlertResult>
