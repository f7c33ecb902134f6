import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  ListTerraformStatesQuery,
  SaveTerraformAliasBody,
  TerraformAlias,
  TerraformLockStatus,
  TerraformState,
  TerraformStateDiff,
  TerraformStateDiffQuery,
} from './terraform.schemas.js'

const WorkspaceParams = z.object({ project_id: PathId, inventory_id: PathId })
const AliasParams = WorkspaceParams.extend({ alias_id: PathId })
const StateParams = WorkspaceParams.extend({ state_id: PathId })
const base = '/api/project/:project_id/inventory/:inventory_id/terraform'
const resources = access.project('manageProjectResources')

/**
 * HTTP-backend aliases, stored state versions and the state lock of a Terraform/OpenTofu
 * workspace (an inventory of type terraform-workspace or tofu-workspace).
 */
export const terraformRoutes = {
  listAliases: defineRoute({
    method: 'GET',
    path: `${base}/aliases`,
    access: access.project(),
    params: WorkspaceParams,
    response: z.array(TerraformAlias),
    status: 200,
  }),
  createAlias: defineRoute({
    method: 'POST',
    path: `${base}/aliases`,
    access: resources,
    params: WorkspaceParams,
    body: SaveTerraformAliasBody,
    response: TerraformAlias,
    status: 201,
  }),
  getAlias: defineRoute({
    method: 'GET',
    path: `${base}/aliases/:alias_id`,
    access: access.project(),
    params: AliasParams,
    response: TerraformAlias,
    status: 200,
  }),
  updateAlias: defineRoute({
    method: 'PUT',
    path: `${base}/aliases/:alias_id`,
    access: resources,
    params: AliasParams,
    body: SaveTerraformAliasBody,
    status: 204,
  }),
  removeAlias: defineRoute({
    method: 'DELETE',
    path: `${base}/aliases/:alias_id`,
    access: resources,
    params: AliasParams,
    status: 204,
  }),
  listStates: defineRoute({
    method: 'GET',
    path: `${base}/states`,
    access: access.project(),
    params: WorkspaceParams,
    query: ListTerraformStatesQuery,
    response: z.array(TerraformState),
    status: 200,
  }),
  latestState: defineRoute({
    method: 'GET',
    path: `${base}/states/latest`,
    access: access.project(),
    params: WorkspaceParams,
    response: TerraformState,
    status: 200,
  }),
  /** Resources added, changed and removed between two versions, by address. */
  diffStates: defineRoute({
    method: 'GET',
    path: `${base}/states/diff`,
    access: access.project(),
    params: WorkspaceParams,
    query: TerraformStateDiffQuery,
    response: TerraformStateDiff,
    status: 200,
  }),
  getState: defineRoute({
    method: 'GET',
    path: `${base}/states/:state_id`,
    access: access.project(),
    params: StateParams,
    response: TerraformState,
    status: 200,
  }),
  removeState: defineRoute({
    method: 'DELETE',
    path: `${base}/states/:state_id`,
    access: resources,
    params: StateParams,
    status: 204,
  }),
  /** Makes an earlier version the current state again, as a new version; refused while locked. */
  restoreState: defineRoute({
    method: 'POST',
    path: `${base}/states/:state_id/restore`,
    access: resources,
    params: StateParams,
    response: TerraformState,
    status: 201,
  }),
  getLock: defineRoute({
    method: 'GET',
    path: `${base}/lock`,
    access: access.project(),
    params: WorkspaceParams,
    response: TerraformLockStatus,
    status: 200,
  }),
  /** Force unlock, as `terraform force-unlock` would. */
  forceUnlock: defineRoute({
    method: 'DELETE',
    path: `${base}/lock`,
    access: resources,
    params: WorkspaceParams,
    status: 204,
  }),
}

const BackendParams = z.object({
  alias: z.string().min(1).max(1024),
})
const backendPath = '/api/terraform/:alias'

/**
 * Terraform's and OpenTofu's `http` backend. Public routes: HTTP basic authentication with
 * the alias key's login and password (or a task's own credentials) is checked by the handler.
 * Bodies are raw state or lock-information JSON, not API payloads; answers follow the backend
 * protocol (200/204 with the state, 423 with the holder's lock information, 401, 404, 409, 413).
 */
export const terraformBackendRoutes = {
  get: defineRoute({
    method: 'GET',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
  post: defineRoute({
    method: 'POST',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
  put: defineRoute({
    method: 'PUT',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
  lock: defineRoute({
    method: 'LOCK',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
  unlock: defineRoute({
    method: 'UNLOCK',
    path: backendPath,
    access: access.public,
    params: BackendParams,
    status: 200,
  }),
}
