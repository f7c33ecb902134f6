import { describe, expect, it } from 'vitest'
import { OIDC_LOGIN_PATH, OIDC_REDIRECT_PATH } from '../auth/auth.schemas.js'
import { ROUTES } from '../routes.js'

/*
 * The operations of the compatible API that its clients call (its route list, by method and
 * path; path parameter names are its own). Every one must stay covered as the contract
 * grows: a route renamed or dropped by mistake fails here.
 */
const COMPATIBLE_OPERATIONS = `
GET /api/ping
GET /api/info
GET /api/auth/login
POST /api/auth/login
POST /api/auth/logout
POST /api/auth/verify
POST /api/auth/recovery
GET /api/auth/oidc/{provider}/login
GET /api/auth/oidc/{provider}/redirect
GET /api/user
GET /api/user/tokens
POST /api/user/tokens
DELETE /api/user/tokens/{token_id}
GET /api/users
POST /api/users
GET /api/users/{user_id}
PUT /api/users/{user_id}
DELETE /api/users/{user_id}
POST /api/users/{user_id}/password
POST /api/users/{user_id}/2fas/totp
GET /api/users/{user_id}/2fas/totp/{totp_id}/qr
DELETE /api/users/{user_id}/2fas/totp/{totp_id}
GET /api/events
GET /api/events/last
GET /api/projects
POST /api/projects
POST /api/projects/restore
GET /api/project/{project_id}
PUT /api/project/{project_id}
DELETE /api/project/{project_id}
GET /api/project/{project_id}/role
DELETE /api/project/{project_id}/me
GET /api/project/{project_id}/backup
GET /api/project/{project_id}/events
GET /api/project/{project_id}/events/last
GET /api/project/{project_id}/users
POST /api/project/{project_id}/users
GET /api/project/{project_id}/users/{user_id}
PUT /api/project/{project_id}/users/{user_id}
DELETE /api/project/{project_id}/users/{user_id}
GET /api/project/{project_id}/keys
POST /api/project/{project_id}/keys
GET /api/project/{project_id}/keys/{key_id}
PUT /api/project/{project_id}/keys/{key_id}
DELETE /api/project/{project_id}/keys/{key_id}
GET /api/project/{project_id}/keys/{key_id}/refs
GET /api/project/{project_id}/repositories
POST /api/project/{project_id}/repositories
GET /api/project/{project_id}/repositories/{repository_id}
PUT /api/project/{project_id}/repositories/{repository_id}
DELETE /api/project/{project_id}/repositories/{repository_id}
GET /api/project/{project_id}/repositories/{repository_id}/refs
GET /api/project/{project_id}/inventory
POST /api/project/{project_id}/inventory
GET /api/project/{project_id}/inventory/{inventory_id}
PUT /api/project/{project_id}/inventory/{inventory_id}
DELETE /api/project/{project_id}/inventory/{inventory_id}
GET /api/project/{project_id}/inventory/{inventory_id}/refs
GET /api/project/{project_id}/inventory/{inventory_id}/terraform/aliases
POST /api/project/{project_id}/inventory/{inventory_id}/terraform/aliases
GET /api/project/{project_id}/inventory/{inventory_id}/terraform/aliases/{alias_id}
PUT /api/project/{project_id}/inventory/{inventory_id}/terraform/aliases/{alias_id}
DELETE /api/project/{project_id}/inventory/{inventory_id}/terraform/aliases/{alias_id}
GET /api/project/{project_id}/inventory/{inventory_id}/terraform/states
GET /api/project/{project_id}/inventory/{inventory_id}/terraform/states/latest
GET /api/project/{project_id}/inventory/{inventory_id}/terraform/states/{state_id}
DELETE /api/project/{project_id}/inventory/{inventory_id}/terraform/states/{state_id}
GET /api/terraform/{alias}
POST /api/terraform/{alias}
LOCK /api/terraform/{alias}
UNLOCK /api/terraform/{alias}
GET /api/project/{project_id}/environment
POST /api/project/{project_id}/environment
GET /api/project/{project_id}/environment/{environment_id}
PUT /api/project/{project_id}/environment/{environment_id}
DELETE /api/project/{project_id}/environment/{environment_id}
GET /api/project/{project_id}/environment/{environment_id}/refs
GET /api/project/{project_id}/templates
POST /api/project/{project_id}/templates
GET /api/project/{project_id}/templates/{template_id}
PUT /api/project/{project_id}/templates/{template_id}
DELETE /api/project/{project_id}/templates/{template_id}
GET /api/project/{project_id}/templates/{template_id}/refs
GET /api/project/{project_id}/templates/{template_id}/tasks
GET /api/project/{project_id}/templates/{template_id}/tasks/last
GET /api/project/{project_id}/templates/{template_id}/schedules
GET /api/project/{project_id}/templates/{template_id}/stats
POST /api/project/{project_id}/templates/{template_id}/inventory/{inventory_id}/attach
POST /api/project/{project_id}/templates/{template_id}/inventory/{inventory_id}/detach
POST /api/project/{project_id}/templates/{template_id}/inventory/{inventory_id}/set_default
GET /api/project/{project_id}/views
POST /api/project/{project_id}/views
GET /api/project/{project_id}/views/{view_id}
PUT /api/project/{project_id}/views/{view_id}
DELETE /api/project/{project_id}/views/{view_id}
POST /api/project/{project_id}/views/positions
GET /api/project/{project_id}/views/{view_id}/templates
GET /api/project/{project_id}/schedules
POST /api/project/{project_id}/schedules
POST /api/project/{project_id}/schedules/validate
GET /api/project/{project_id}/schedules/{schedule_id}
PUT /api/project/{project_id}/schedules/{schedule_id}
PUT /api/project/{project_id}/schedules/{schedule_id}/active
DELETE /api/project/{project_id}/schedules/{schedule_id}
POST /api/project/{project_id}/tasks
GET /api/project/{project_id}/tasks
GET /api/project/{project_id}/tasks/last
GET /api/project/{project_id}/tasks/{task_id}
GET /api/project/{project_id}/tasks/{task_id}/output
POST /api/project/{project_id}/tasks/{task_id}/stop
POST /api/project/{project_id}/tasks/{task_id}/confirm
POST /api/project/{project_id}/tasks/{task_id}/reject
DELETE /api/project/{project_id}/tasks/{task_id}
GET /api/tasks
GET /api/tasks/{task_id}
DELETE /api/tasks/{task_id}
GET /api/project/{project_id}/integrations
POST /api/project/{project_id}/integrations
GET /api/project/{project_id}/integrations/{integration_id}
PUT /api/project/{project_id}/integrations/{integration_id}
DELETE /api/project/{project_id}/integrations/{integration_id}
GET /api/project/{project_id}/integrations/{integration_id}/refs
GET /api/project/{project_id}/integrations/{integration_id}/matchers
POST /api/project/{project_id}/integrations/{integration_id}/matchers
GET /api/project/{project_id}/integrations/{integration_id}/matchers/{matcher_id}
PUT /api/project/{project_id}/integrations/{integration_id}/matchers/{matcher_id}
DELETE /api/project/{project_id}/integrations/{integration_id}/matchers/{matcher_id}
GET /api/project/{project_id}/integrations/{integration_id}/matchers/{matcher_id}/refs
GET /api/project/{project_id}/integrations/{integration_id}/values
POST /api/project/{project_id}/integrations/{integration_id}/values
GET /api/project/{project_id}/integrations/{integration_id}/values/{value_id}
PUT /api/project/{project_id}/integrations/{integration_id}/values/{value_id}
DELETE /api/project/{project_id}/integrations/{integration_id}/values/{value_id}
GET /api/project/{project_id}/integrations/{integration_id}/values/{value_id}/refs
GET /api/project/{project_id}/integrations/aliases
POST /api/project/{project_id}/integrations/aliases
DELETE /api/project/{project_id}/integrations/aliases/{alias_id}
GET /api/project/{project_id}/integrations/{integration_id}/aliases
POST /api/project/{project_id}/integrations/{integration_id}/aliases
DELETE /api/project/{project_id}/integrations/{integration_id}/aliases/{alias_id}
GET /api/integrations/{alias}
POST /api/integrations/{alias}
GET /api/runners
POST /api/runners
GET /api/runners/{runner_id}
PUT /api/runners/{runner_id}
POST /api/runners/{runner_id}
POST /api/runners/{runner_id}/active
DELETE /api/runners/{runner_id}
GET /api/project/{project_id}/runners
POST /api/project/{project_id}/runners
GET /api/project/{project_id}/runners/{runner_id}
PUT /api/project/{project_id}/runners/{runner_id}
DELETE /api/project/{project_id}/runners/{runner_id}
POST /api/project/{project_id}/runners/{runner_id}/active
POST /api/internal/runners
GET /api/internal/runners
PUT /api/internal/runners
DELETE /api/internal/runners
GET /api/apps
GET /api/apps/{app_id}
PUT /api/apps/{app_id}
POST /api/apps/{app_id}
POST /api/apps/{app_id}/active
DELETE /api/apps/{app_id}
GET /api/options
POST /api/options
`

/** `GET /api/project/{x}/keys/{y}` and `GET /api/project/:a/keys/:b` both become `GET /api/project/{}/keys/{}`. */
function shape(method: string, path: string): string {
  return `${method} ${path.replace(/\{[^}]+\}|:[a-z_]+/g, '{}')}`
}

describe('compatible API operations', () => {
  const covered = new Set([
    ...ROUTES.map((route) => shape(route.method, route.path)),
    // Redirects for the browser, mounted next to the contract's JSON routes.
    shape('GET', OIDC_LOGIN_PATH),
    shape('GET', OIDC_REDIRECT_PATH),
  ])
  const operations = COMPATIBLE_OPERATIONS.trim()
    .split('\n')
    .map((line) => line.split(' ') as [string, string])

  it.each(operations)('%s %s is served', (method, path) => {
    expect(covered.has(shape(method, path))).toBe(true)
  })
})
