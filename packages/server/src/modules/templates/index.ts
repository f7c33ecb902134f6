export { templatesRoutes } from './templates.routes.js'
