import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { projectResourceRoutes } from './crud.js'
import {
  CreateEnvironmentBody,
  Environment,
  UpdateEnvironmentBody,
} from './environments.schemas.js'
import {
  CreateInventoryBody,
  Inventory,
  ListInventoryQuery,
  UpdateInventoryBody,
} from './inventories.schemas.js'
import {
  AccessKey,
  CreateAccessKeyBody,
  KEY_SORT_COLUMNS,
  UpdateAccessKeyBody,
} from './keys.schemas.js'
import { listQuery } from './refs.schemas.js'
import {
  CreateRepositoryBody,
  Repository,
  REPOSITORY_SORT_COLUMNS,
  UpdateRepositoryBody,
} from './repositories.schemas.js'
import { CreateViewBody, UpdateViewBody, View, ViewPositionsBody } from './views.schemas.js'

export const keyRoutes = projectResourceRoutes({
  segment: 'keys',
  idParam: 'key_id',
  item: AccessKey,
  create: CreateAccessKeyBody,
  update: UpdateAccessKeyBody,
  query: listQuery(KEY_SORT_COLUMNS),
})

export const repositoryRoutes = projectResourceRoutes({
  segment: 'repositories',
  idParam: 'repository_id',
  item: Repository,
  create: CreateRepositoryBody,
  update: UpdateRepositoryBody,
  // Unknown sort columns fall back to the name, as the compatible API does.
  query: z.object({
    sort: z
      .string()
      .max(32)
      .optional()
      .transform((s) =>
        (REPOSITORY_SORT_COLUMNS as readonly string[]).includes(s ?? '')
          ? (s as (typeof REPOSITORY_SORT_COLUMNS)[number])
          : 'name',
      ),
    order: z.string().max(8).optional(),
  }),
})

export const inventoryRoutes = projectResourceRoutes({
  segment: 'inventory',
  idParam: 'inventory_id',
  item: Inventory,
  create: CreateInventoryBody,
  update: UpdateInventoryBody,
  query: ListInventoryQuery,
})

export const environmentRoutes = projectResourceRoutes({
  segment: 'environment',
  idParam: 'environment_id',
  item: Environment,
  create: CreateEnvironmentBody,
  update: UpdateEnvironmentBody,
  query: listQuery(['name'] as const),
})

const viewCrud = projectResourceRoutes({
  segment: 'views',
  idParam: 'view_id',
  item: View,
  create: CreateViewBody,
  update: UpdateViewBody,
  query: z.object({}),
})

/** Views have no refs: deleting one moves its templates back to "All". */
export const viewRoutes = {
  list: viewCrud.list,
  create: viewCrud.create,
  get: viewCrud.get,
  update: viewCrud.update,
  remove: viewCrud.remove,
  positions: defineRoute({
    method: 'POST',
    path: '/api/project/:project_id/views/positions',
    access: access.project('manageProjectResources'),
    params: z.object({ project_id: PathId }),
    body: ViewPositionsBody,
    status: 204,
  }),
}
