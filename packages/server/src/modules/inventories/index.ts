export { inventoriesRoutes } from './inventories.routes.js'
