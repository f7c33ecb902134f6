export { appsRoutes } from './apps.routes.js'
export { findApp } from './apps.service.js'
