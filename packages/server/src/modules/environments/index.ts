export { environmentsRoutes } from './environments.routes.js'
export { encryptStoredPasswords } from './environments.service.js'
