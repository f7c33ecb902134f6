export { projectsRoutes } from './projects.routes.js'
