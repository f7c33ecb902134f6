export { repositoriesRoutes } from './repositories.routes.js'
