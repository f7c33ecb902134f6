export { insertEvent, type NewEvent } from './events.repository.js'
export { eventsRoutes } from './events.routes.js'
