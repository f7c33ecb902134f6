export { backupRoutes } from './backup.routes.js'
