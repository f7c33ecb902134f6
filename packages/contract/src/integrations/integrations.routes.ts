import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { listQuery } from '../resources/refs.schemas.js'
import {
  CreateExtractValueBody,
  CreateIntegrationBody,
  CreateMatcherBody,
  Integration,
  IntegrationAlias,
  IntegrationDelivery,
  IntegrationExtractValue,
  IntegrationMatcher,
  IntegrationPartRefs,
  IntegrationRefs,
  UpdateExtractValueBody,
  UpdateIntegrationBody,
  UpdateMatcherBody,
} from './integrations.schemas.js'

const ProjectParams = z.object({ project_id: PathId })
const IntegrationParams = z.object({ project_id: PathId, integration_id: PathId })
const MatcherParams = IntegrationParams.extend({ matcher_id: PathId })
const ValueParams = IntegrationParams.extend({ value_id: PathId })
const AliasParams = ProjectParams.extend({ alias_id: PathId })
const IntegrationAliasParams = IntegrationParams.extend({ alias_id: PathId })

const base = '/api/project/:project_id/integrations'
const item = `${base}/:integration_id`
const READ = access.project()
const WRITE = access.project('manageProjectResources')

/** Incoming webhooks of a project: members read, manageProjectResources writes. */
export const integrationRoutes = {
  list: defineRoute({
    method: 'GET',
    path: base,
    access: READ,
    params: ProjectParams,
    query: listQuery(['name']),
    response: z.array(Integration),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    access: WRITE,
    params: ProjectParams,
    body: CreateIntegrationBody,
    response: Integration,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: item,
    access: READ,
    params: IntegrationParams,
    response: Integration,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: item,
    access: WRITE,
    params: IntegrationParams,
    body: UpdateIntegrationBody,
    status: 204,
  }),
  /** Also removes the integration's matchers, extracted values and aliases. */
  remove: defineRoute({
    method: 'DELETE',
    path: item,
    access: WRITE,
    params: IntegrationParams,
    status: 204,
  }),
  refs: defineRoute({
    method: 'GET',
    path: `${item}/refs`,
    access: READ,
    params: IntegrationParams,
    response: IntegrationRefs,
    status: 200,
  }),
  /** The last 100 webhook deliveries to the integration, newest first. */
  deliveries: defineRoute({
    method: 'GET',
    path: `${item}/deliveries`,
    access: READ,
    params: IntegrationParams,
    response: z.array(IntegrationDelivery),
    status: 200,
  }),
}

export const integrationMatcherRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${item}/matchers`,
    access: READ,
    params: IntegrationParams,
    response: z.array(IntegrationMatcher),
    status: 200,
  }),
  /** Answers 200, as the compatible API does. */
  create: defineRoute({
    method: 'POST',
    path: `${item}/matchers`,
    access: WRITE,
    params: IntegrationParams,
    body: CreateMatcherBody,
    response: IntegrationMatcher,
    status: 200,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${item}/matchers/:matcher_id`,
    access: READ,
    params: MatcherParams,
    response: IntegrationMatcher,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${item}/matchers/:matcher_id`,
    access: WRITE,
    params: MatcherParams,
    body: UpdateMatcherBody,
    status: 204,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${item}/matchers/:matcher_id`,
    access: WRITE,
    params: MatcherParams,
    status: 204,
  }),
  refs: defineRoute({
    method: 'GET',
    path: `${item}/matchers/:matcher_id/refs`,
    access: READ,
    params: MatcherParams,
    response: IntegrationPartRefs,
    status: 200,
  }),
}

export const integrationValueRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${item}/values`,
    access: READ,
    params: IntegrationParams,
    response: z.array(IntegrationExtractValue),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: `${item}/values`,
    access: WRITE,
    params: IntegrationParams,
    body: CreateExtractValueBody,
    response: IntegrationExtractValue,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${item}/values/:value_id`,
    access: READ,
    params: ValueParams,
    response: IntegrationExtractValue,
    status: 200,
  }),
  /** Fields sent are merged into the stored value. */
  update: defineRoute({
    method: 'PUT',
    path: `${item}/values/:value_id`,
    access: WRITE,
    params: ValueParams,
    body: UpdateExtractValueBody,
    status: 204,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${item}/values/:value_id`,
    access: WRITE,
    params: ValueParams,
    status: 204,
  }),
  refs: defineRoute({
    method: 'GET',
    path: `${item}/values/:value_id/refs`,
    access: READ,
    params: ValueParams,
    response: IntegrationPartRefs,
    status: 200,
  }),
}

/**
 * Aliases: the addresses webhooks are delivered to. Project-level aliases reach every
 * searchable integration of the project; integration-level aliases reach one integration.
 * Creating one answers 200 with a new random alias.
 */
export const integrationAliasRoutes = {
  listProject: defineRoute({
    method: 'GET',
    path: `${base}/aliases`,
    access: READ,
    params: ProjectParams,
    response: z.array(IntegrationAlias),
    status: 200,
  }),
  createProject: defineRoute({
    method: 'POST',
    path: `${base}/aliases`,
    access: WRITE,
    params: ProjectParams,
    response: IntegrationAlias,
    status: 200,
  }),
  removeProject: defineRoute({
    method: 'DELETE',
    path: `${base}/aliases/:alias_id`,
    access: WRITE,
    params: AliasParams,
    status: 204,
  }),
  list: defineRoute({
    method: 'GET',
    path: `${item}/aliases`,
    access: READ,
    params: IntegrationParams,
    response: z.array(IntegrationAlias),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: `${item}/aliases`,
    access: WRITE,
    params: IntegrationParams,
    response: IntegrationAlias,
    status: 200,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${item}/aliases/:alias_id`,
    access: WRITE,
    params: IntegrationAliasParams,
    status: 204,
  }),
}

/** Anything after `/api/integrations/`; what is not a known alias is answered alike. */
const ReceiverParams = z.object({ alias: z.string() })
const receiverPath = '/api/integrations/:alias'

/**
 * The webhook receiver. Any caller may deliver; the integration's authentication method
 * decides. An existing alias answers 204 whatever the outcome; any other alias 200 with an
 * empty body. The body is read as raw bytes (at most 1 MB, 413 beyond it) and each alias
 * takes a bounded number of deliveries per second (429 beyond it).
 */
export const integrationReceiverRoutes = {
  get: defineRoute({
    method: 'GET',
    path: receiverPath,
    access: access.public,
    params: ReceiverParams,
    status: 204,
  }),
  post: defineRoute({
    method: 'POST',
    path: receiverPath,
    access: access.public,
    params: ReceiverParams,
    status: 204,
  }),
  options: defineRoute({
    method: 'OPTIONS',
    path: receiverPath,
    access: access.public,
    params: ReceiverParams,
    status: 204,
  }),
}
