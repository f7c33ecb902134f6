import { z } from 'zod'
import { typeError } from '../common/fields.js'

/** Longest key accepted for reading; a real key is far shorter. */
export const MAX_SUBSCRIPTION_KEY_LENGTH = 4096

/** The edition this server is: every feature included, no subscription to activate. */
export const COMMUNITY_PLAN = 'community'

/**
 * The server's subscription, in the shape consoles of the compatible API read
 * (`key`, `plan`, `state`, `expiresAt`, `users`). This edition has no plan to buy, so it
 * answers a "no plan" object: `state` is `none` and `all_features_included` is true.
 */
export const Subscription = z.object({
  key: z.string(),
  plan: z.string(),
  state: z.enum(['active', 'expired', 'none']),
  expiresAt: z.string().nullable(),
  /** Users the plan allows; null when it has no limit. */
  users: z.number().int().nullable(),
  all_features_included: z.boolean(),
})
export type Subscription = z.infer<typeof Subscription>

export const ActivateSubscriptionBody = z.object({
  key: z
    .string({ error: typeError('key', 'a string') })
    .trim()
    .min(1, 'Key is required')
    .max(
      MAX_SUBSCRIPTION_KEY_LENGTH,
      `Key must be at most ${MAX_SUBSCRIPTION_KEY_LENGTH} characters`,
    ),
})
export type ActivateSubscriptionBody = z.input<typeof ActivateSubscriptionBody>

/** Why activation is refused in this edition. */
export const NO_SUBSCRIPTION_NEEDED =
  'This is the community edition: every feature is included and no subscription key is needed'
