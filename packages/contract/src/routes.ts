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
import { logSearchRoutes } from './tasks/log-search.routes.js'
import { activeTaskRoutes, taskRoutes } from './tasks/tasks.routes.js'
import { appRoutes, templateRoutes } from './templates/templates.routes.js'
import * as team from './team/team.routes.js'
import * as users from './users/users.routes.js'

function isRoute(value: unknown): value is RouteDef {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * Every route group, with the prefix of its routes' names: a module that exports each route
 * as a constant of its own has none (`login`), a group object lends its name (`keyRoutes.list`
 * is `keyList`).
 */
const GROUPS: readonly (readonly [prefix: string, group: Record<string, unknown>])[] = [
  ['', system],
  ['', auth],
  ['', users],
  ['', projects],
  ['', team],
  ['', events],
  ['key', keyRoutes],
  ['repository', repositoryRoutes],
  ['inventory', inventoryRoutes],
  ['terraform', terraformRoutes],
  ['terraformBackend', terraformBackendRoutes],
  ['environment', environmentRoutes],
  ['view', viewRoutes],
  ['template', templateRoutes],
  ['schedule', scheduleRoutes],
  ['app', appRoutes],
  ['task', taskRoutes],
  ['activeTask', activeTaskRoutes],
  ['logSearch', logSearchRoutes],
  ['integrationAlias', integrationAliasRoutes],
  ['integration', integrationRoutes],
  ['integrationMatcher', integrationMatcherRoutes],
  ['integrationValue', integrationValueRoutes],
  ['integrationReceiver', integrationReceiverRoutes],
  ['globalRunner', globalRunnerRoutes],
  ['projectRunner', projectRunnerRoutes],
  ['runnerProtocol', runnerProtocolRoutes],
  ['alert', alertRoutes],
  ['subscription', subscriptionRoutes],
]

/** Every HTTP route with its stable name (the operation id of the API document). */
export const NAMED_ROUTES: readonly (readonly [name: string, route: RouteDef])[] = GROUPS.flatMap(
  ([prefix, group]) =>
    Object.entries(group)
      .filter((entry): entry is [string, RouteDef] => isRoute(entry[1]))
      .map(([key, route]) => [prefix ? `${prefix}${capitalized(key)}` : key, route] as const),
)

/** Every HTTP route of the API. The server mounts exactly these. */
export const ROUTES: readonly RouteDef[] = NAMED_ROUTES.map(([, route]) => route)
