export { subscriptionModule } from './subscription.routes.js'
