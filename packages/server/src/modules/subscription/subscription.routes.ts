import {
  COMMUNITY_PLAN,
  NO_SUBSCRIPTION_NEEDED,
  subscriptionRoutes,
  type Subscription,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { BadRequestError } from '../../platform/errors.js'

/** What this edition has instead of a subscription: everything, with no key and no limit. */
const COMMUNITY_EDITION: Subscription = {
  key: '',
  plan: COMMUNITY_PLAN,
  state: 'none',
  expiresAt: null,
  users: null,
  all_features_included: true,
}

export function subscriptionModule(app: FastifyInstance): void {
  const r = subscriptionRoutes
  mount(app, r.get, async () => COMMUNITY_EDITION)
  // The key has been validated (required, bounded) by then; there is nothing to activate.
  mount(app, r.activate, async () => {
    throw new BadRequestError(NO_SUBSCRIPTION_NEEDED)
  })
}
