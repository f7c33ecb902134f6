import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  CreateScheduleBody,
  PreviewScheduleBody,
  Schedule,
  ScheduleActiveBody,
  SchedulePreview,
  ScheduleRun,
  ScheduleWithTemplate,
  UpdateScheduleBody,
  ValidateCronBody,
} from './schedules.schemas.js'

const ProjectParams = z.object({ project_id: PathId })
const ScheduleParams = z.object({ project_id: PathId, schedule_id: PathId })
const base = '/api/project/:project_id/schedules'

/** Reads need membership; writes (and checking an expression) need manageProjectResources. */
export const scheduleRoutes = {
  /** Cron schedules of the project; commit checks are listed with their template. */
  list: defineRoute({
    method: 'GET',
    path: base,
    access: access.project(),
    params: ProjectParams,
    response: z.array(ScheduleWithTemplate),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    access: access.project('manageProjectResources'),
    params: ProjectParams,
    body: CreateScheduleBody,
    response: Schedule,
    status: 201,
  }),
  /** Answers 200 with an empty body when the expression is valid. */
  validate: defineRoute({
    method: 'POST',
    path: `${base}/validate`,
    access: access.project('manageProjectResources'),
    params: ProjectParams,
    body: ValidateCronBody,
    status: 200,
  }),
  /**
   * The next times an expression names in a time zone, as the server's clock reads them;
   * refusals are worded as for `validate`. Any member may ask: nothing is stored.
   */
  preview: defineRoute({
    method: 'POST',
    path: `${base}/preview`,
    access: access.project(),
    params: ProjectParams,
    body: PreviewScheduleBody,
    response: SchedulePreview,
    status: 200,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/:schedule_id`,
    access: access.project(),
    params: ScheduleParams,
    response: Schedule,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/:schedule_id`,
    access: access.project('manageProjectResources'),
    params: ScheduleParams,
    body: UpdateScheduleBody,
    status: 204,
  }),
  setActive: defineRoute({
    method: 'PUT',
    path: `${base}/:schedule_id/active`,
    access: access.project('manageProjectResources'),
    params: ScheduleParams,
    body: ScheduleActiveBody,
    status: 204,
  }),
  /** The latest due times of the schedule as the clock recorded them, newest first. */
  runs: defineRoute({
    method: 'GET',
    path: `${base}/:schedule_id/runs`,
    access: access.project(),
    params: ScheduleParams,
    response: z.array(ScheduleRun),
    status: 200,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/:schedule_id`,
    access: access.project('manageProjectResources'),
    params: ScheduleParams,
    status: 204,
  }),
}
