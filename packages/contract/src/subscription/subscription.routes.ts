import { access, defineRoute } from '../http.js'
import { ActivateSubscriptionBody, Subscription } from './subscription.schemas.js'

export const subscriptionRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/subscription',
    access: access.admin,
    response: Subscription,
    status: 200,
  }),
  /**
   * Activates a key. Declared with a success answer for clients of the compatible API; this
   * edition refuses every key with 400, as nothing needs activating.
   */
  activate: defineRoute({
    method: 'POST',
    path: '/api/subscription',
    access: access.admin,
    body: ActivateSubscriptionBody,
    response: Subscription,
    status: 200,
  }),
}
