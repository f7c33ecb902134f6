export { integrationsRoutes } from './integrations.routes.js'
export { receiverRoutes } from './receiver.routes.js'
