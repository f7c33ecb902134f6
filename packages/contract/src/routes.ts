import { alertRoutes } from './alerts/alerts.routes.js'
import * as auth from './auth/auth.routes.js'
import * as events from './events/events.routes.js'
import {
  integrationAliasRoutes,
  integrationMatcherRoutes,
  integrationReceiverRoutes,
  integrationRoutes,
  integrationValueRoutes,
} from './integrations/integrations.routes.js'
import type { RouteDef } from './http.js'
import * as projects from './projects/projects.routes.js'
import {
  environmentRoutes,
  inventoryRoutes,
  keyRoutes,
  repositoryRoutes,
  viewRoutes,
} from './resources/resources.routes.js'
import { terraformBackendRoutes, terraformRoutes } from './resources/terraform.routes.js'
import {
  globalRunnerRoutes,
  projectRunnerRoutes,
  runnerProtocolRoutes,
} from './runners/runners.routes.js'
import { scheduleRoutes } from './schedules/schedules.routes.js'
import { subscriptionRoutes } from './subscription/subscription.routes.js'
import * as system from './system/system.routes.js'
import { activeTaskRoutes, taskRoutes } from './tasks/tasks.routes.js'
import { appRoutes, templateRoutes } from './templates/templates.routes.js'
import * as team from './team/team.routes.js'
import * as users from './users/users.routes.js'

function routesOf(module: Record<string, unknown>): RouteDef[] {
  return Object.values(module).filter(
    (value): value is RouteDef =>
      typeof value === 'object' && value !== null && 'method' in value && 'path' in value,
  )
}

/** Every HTTP route of the API. The server mounts exactly these. */
export const ROUTES: readonly RouteDef[] = [
  ...routesOf(system),
  ...routesOf(auth),
  ...routesOf(users),
  ...routesOf(projects),
  ...routesOf(team),
  ...routesOf(events),
  ...routesOf(keyRoutes),
  ...routesOf(repositoryRoutes),
  ...routesOf(inventoryRoutes),
  ...routesOf(terraformRoutes),
  ...routesOf(terraformBackendRoutes),
  ...routesOf(environmentRoutes),
  ...routesOf(viewRoutes),
  ...routesOf(templateRoutes),
  ...routesOf(scheduleRoutes),
  ...routesOf(appRoutes),
  ...routesOf(taskRoutes),
  ...routesOf(activeTaskRoutes),
  ...routesOf(integrationAliasRoutes),
  ...routesOf(integrationRoutes),
  ...routesOf(integrationMatcherRoutes),
  ...routesOf(integrationValueRoutes),
  ...routesOf(integrationReceiverRoutes),
  ...routesOf(globalRunnerRoutes),
  ...routesOf(projectRunnerRoutes),
  ...routesOf(runnerProtocolRoutes),
  ...routesOf(alertRoutes),
  ...routesOf(subscriptionRoutes),
]
