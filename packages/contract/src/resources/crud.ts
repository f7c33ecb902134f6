import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { Refs } from './refs.schemas.js'

/**
 * The route set every project resource shares: list, get, create, update, delete, refs.
 * Reads need membership; writes need manageProjectResources.
 */
export function projectResourceRoutes<
  Item extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
  Query extends z.ZodType,
  IdParam extends string,
>(options: {
  /** Path segment after `/api/project/:project_id/`, e.g. `keys`. */
  segment: string
  idParam: IdParam
  item: Item
  create: Create
  update: Update
  query: Query
}) {
  const base = `/api/project/:project_id/${options.segment}`
  const itemPath = `${base}/:${options.idParam}`
  const listParams = z.object({ project_id: PathId })
  const itemParams = z.object({ project_id: PathId, [options.idParam]: PathId }) as z.ZodObject<
    { project_id: typeof PathId } & Record<IdParam, typeof PathId>
  >
  return {
    list: defineRoute({
      method: 'GET',
      path: base,
      access: access.project(),
      params: listParams,
      query: options.query,
      response: z.array(options.item),
      status: 200,
    }),
    create: defineRoute({
      method: 'POST',
      path: base,
      access: access.project('manageProjectResources'),
      params: listParams,
      body: options.create,
      response: options.item,
      status: 201,
    }),
    get: defineRoute({
      method: 'GET',
      path: itemPath,
      access: access.project(),
      params: itemParams,
      response: options.item,
      status: 200,
    }),
    update: defineRoute({
      method: 'PUT',
      path: itemPath,
      access: access.project('manageProjectResources'),
      params: itemParams,
      body: options.update,
      status: 204,
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: itemPath,
      access: access.project('manageProjectResources'),
      params: itemParams,
      status: 204,
    }),
    refs: defineRoute({
      method: 'GET',
      path: `${itemPath}/refs`,
      access: access.project(),
      params: itemParams,
      response: Refs,
      status: 200,
    }),
  }
}
