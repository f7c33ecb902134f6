import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { TestAlertResult } from './alerts.schemas.js'

export const alertRoutes = {
  /** Sends a test alert of the project to every configured channel, at once, and answers each result. */
  test: defineRoute({
    method: 'POST',
    path: '/api/project/:project_id/alerts/test',
    access: access.project('updateProject'),
    params: z.object({ project_id: PathId }),
    response: TestAlertResult,
    status: 200,
  }),
}
