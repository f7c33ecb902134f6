import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { SaveTerraformAliasBody, TerraformAlias, TerraformState } from './terraform.schemas.js'

const WorkspaceParams = z.object({ project_id: PathId, inventory_id: PathId })
const AliasParams = WorkspaceParams.extend({ alias_id: PathId })
const StateParams = WorkspaceParams.extend({ state_id: PathId })
const base = '/api/project/:project_id/inventory/:inventory_id/terraform'
const resources = access.project('manageProjectResources')

/**
 * HTTP-backend aliases and stored states of a Terraform/OpenTofu workspace. This edition has
 * no HTTP backend: lists are empty and single items are not found, as the compatible
 * community server answers.
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
}
