import {
  integrationAliasRoutes,
  integrationMatcherRoutes,
  integrationRoutes,
  integrationValueRoutes,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as integrations from './integrations.service.js'

export function integrationsRoutes(app: FastifyInstance): void {
  const r = integrationRoutes
  mount(app, r.list, async ({ db, project, query }) =>
    integrations.listIntegrations(db, project.projectId, query.order),
  )
  mount(app, r.create, async ({ db, actor, project, body }) =>
    integrations.createIntegration(db, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    integrations.getIntegration(db, project.projectId, params.integration_id),
  )
  mount(app, r.update, async ({ db, actor, project, params, body }) =>
    integrations.updateIntegration(db, actor, project.projectId, params.integration_id, body),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    integrations.deleteIntegration(db, actor, project.projectId, params.integration_id),
  )
  mount(app, r.refs, async ({ db, project, params }) =>
    integrations.integrationRefs(db, project.projectId, params.integration_id),
  )
  mount(app, r.deliveries, async ({ db, project, params }) =>
    integrations.listDeliveries(db, project.projectId, params.integration_id),
  )

  const m = integrationMatcherRoutes
  mount(app, m.list, async ({ db, project, params }) =>
    integrations.listMatchers(db, project.projectId, params.integration_id),
  )
  mount(app, m.create, async ({ db, actor, project, params, body }) =>
    integrations.createMatcher(db, actor, project.projectId, params.integration_id, body),
  )
  mount(app, m.get, async ({ db, project, params }) =>
    integrations.getMatcher(db, project.projectId, params.integration_id, params.matcher_id),
  )
  mount(app, m.update, async ({ db, actor, project, params, body }) =>
    integrations.updateMatcher(
      db,
      actor,
      project.projectId,
      params.integration_id,
      params.matcher_id,
      body,
    ),
  )
  mount(app, m.remove, async ({ db, actor, project, params }) =>
    integrations.deleteMatcher(
      db,
      actor,
      project.projectId,
      params.integration_id,
      params.matcher_id,
    ),
  )
  mount(app, m.refs, async ({ db, project, params }) =>
    integrations.matcherRefs(db, project.projectId, params.integration_id, params.matcher_id),
  )

  const v = integrationValueRoutes
  mount(app, v.list, async ({ db, project, params }) =>
    integrations.listValues(db, project.projectId, params.integration_id),
  )
  mount(app, v.create, async ({ db, actor, project, params, body }) =>
    integrations.createValue(db, actor, project.projectId, params.integration_id, body),
  )
  mount(app, v.get, async ({ db, project, params }) =>
    integrations.getValue(db, project.projectId, params.integration_id, params.value_id),
  )
  mount(app, v.update, async ({ db, actor, project, params, body }) =>
    integrations.updateValue(
      db,
      actor,
      project.projectId,
      params.integration_id,
      params.value_id,
      body,
    ),
  )
  mount(app, v.remove, async ({ db, actor, project, params }) =>
    integrations.deleteValue(db, actor, project.projectId, params.integration_id, params.value_id),
  )
  mount(app, v.refs, async ({ db, project, params }) =>
    integrations.valueRefs(db, project.projectId, params.integration_id, params.value_id),
  )

  const a = integrationAliasRoutes
  mount(app, a.listProject, async ({ db, config, project }) =>
    integrations.listAliases(db, config, project.projectId, null),
  )
  mount(app, a.createProject, async ({ db, config, actor, project }) =>
    integrations.createAlias(db, config, actor, project.projectId, null),
  )
  mount(app, a.removeProject, async ({ db, actor, project, params }) =>
    integrations.deleteAlias(db, actor, project.projectId, null, params.alias_id),
  )
  mount(app, a.list, async ({ db, config, project, params }) =>
    integrations.listAliases(db, config, project.projectId, params.integration_id),
  )
  mount(app, a.create, async ({ db, config, actor, project, params }) =>
    integrations.createAlias(db, config, actor, project.projectId, params.integration_id),
  )
  mount(app, a.remove, async ({ db, actor, project, params }) =>
    integrations.deleteAlias(db, actor, project.projectId, params.integration_id, params.alias_id),
  )
}
