export { terraformBackendRoutes } from './terraform.routes.js'
