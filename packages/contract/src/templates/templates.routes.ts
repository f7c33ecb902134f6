import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { Refs } from '../resources/refs.schemas.js'
import { Schedule } from '../schedules/schedules.schemas.js'
import { App, AppId, SaveAppBody, SetActiveBody } from './apps.schemas.js'
import {
  CreateTemplateBody,
  ListTemplatesQuery,
  Template,
  UpdateTemplateBody,
} from './templates.schemas.js'

const ProjectParams = z.object({ project_id: PathId })
const TemplateParams = z.object({ project_id: PathId, template_id: PathId })
const TemplateInventoryParams = TemplateParams.extend({ inventory_id: PathId })
const base = '/api/project/:project_id/templates'

export const templateRoutes = {
  list: defineRoute({
    method: 'GET',
    path: base,
    access: access.project(),
    params: ProjectParams,
    query: ListTemplatesQuery,
    response: z.array(Template),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    access: access.project('manageProjectResources'),
    params: ProjectParams,
    body: CreateTemplateBody,
    response: Template,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/:template_id`,
    access: access.project(),
    params: TemplateParams,
    response: Template,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/:template_id`,
    access: access.project('manageProjectResources'),
    params: TemplateParams,
    body: UpdateTemplateBody,
    status: 204,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/:template_id`,
    access: access.project('manageProjectResources'),
    params: TemplateParams,
    status: 204,
  }),
  refs: defineRoute({
    method: 'GET',
    path: `${base}/:template_id/refs`,
    access: access.project(),
    params: TemplateParams,
    response: Refs,
    status: 200,
  }),
  /** Commit-check schedules of the template. */
  schedules: defineRoute({
    method: 'GET',
    path: `${base}/:template_id/schedules`,
    access: access.project(),
    params: TemplateParams,
    response: z.array(Schedule),
    status: 200,
  }),
  /** Makes a workspace inventory the template's own (Terraform/OpenTofu). */
  attachInventory: defineRoute({
    method: 'POST',
    path: `${base}/:template_id/inventory/:inventory_id/attach`,
    access: access.project('manageProjectResources'),
    params: TemplateInventoryParams,
    status: 204,
  }),
  /** Releases a workspace the template owns. */
  detachInventory: defineRoute({
    method: 'POST',
    path: `${base}/:template_id/inventory/:inventory_id/detach`,
    access: access.project('manageProjectResources'),
    params: TemplateInventoryParams,
    status: 204,
  }),
  /** Makes the inventory the template's default one. */
  setDefaultInventory: defineRoute({
    method: 'POST',
    path: `${base}/:template_id/inventory/:inventory_id/set_default`,
    access: access.project('manageProjectResources'),
    params: TemplateInventoryParams,
    status: 204,
  }),
  listInView: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/views/:view_id/templates',
    access: access.project(),
    params: z.object({ project_id: PathId, view_id: PathId }),
    query: ListTemplatesQuery,
    response: z.array(Template),
    status: 200,
  }),
}

const AppParams = z.object({ app_id: AppId })

export const appRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/apps',
    access: access.auth,
    response: z.array(App),
    status: 200,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/apps/:app_id',
    access: access.admin,
    params: AppParams,
    response: App,
    status: 200,
  }),
  save: defineRoute({
    method: 'PUT',
    path: '/api/apps/:app_id',
    access: access.admin,
    params: AppParams,
    body: SaveAppBody,
    status: 204,
  }),
  /** The compatible API also accepts POST for saving an app. */
  saveByPost: defineRoute({
    method: 'POST',
    path: '/api/apps/:app_id',
    access: access.admin,
    params: AppParams,
    body: SaveAppBody,
    status: 204,
  }),
  setActive: defineRoute({
    method: 'POST',
    path: '/api/apps/:app_id/active',
    access: access.admin,
    params: AppParams,
    body: SetActiveBody,
    status: 204,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/apps/:app_id',
    access: access.admin,
    params: AppParams,
    status: 204,
  }),
}
