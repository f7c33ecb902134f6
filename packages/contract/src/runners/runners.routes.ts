import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  RegisteredRunner,
  RegisterRunnerBody,
  RunnerPollQuery,
  RunnerProgressBody,
} from './runner-protocol.schemas.js'
import {
  CreatedRunner,
  CreateRunnerBody,
  Runner,
  SetRunnerActiveBody,
  UpdateRunnerBody,
} from './runners.schemas.js'

const RunnerParams = z.object({ runner_id: PathId })
const ProjectParams = z.object({ project_id: PathId })
const ProjectRunnerParams = ProjectParams.extend({ runner_id: PathId })

/** Global runners: administrators only. */
export const globalRunnerRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/runners',
    access: access.admin,
    response: z.array(Runner),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/runners',
    access: access.admin,
    body: CreateRunnerBody,
    response: CreatedRunner,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/runners/:runner_id',
    access: access.admin,
    params: RunnerParams,
    response: Runner,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/runners/:runner_id',
    access: access.admin,
    params: RunnerParams,
    body: UpdateRunnerBody,
    status: 204,
  }),
  /** The compatible API also takes an update as POST. */
  updateByPost: defineRoute({
    method: 'POST',
    path: '/api/runners/:runner_id',
    access: access.admin,
    params: RunnerParams,
    body: UpdateRunnerBody,
    status: 204,
  }),
  setActive: defineRoute({
    method: 'POST',
    path: '/api/runners/:runner_id/active',
    access: access.admin,
    params: RunnerParams,
    body: SetRunnerActiveBody,
    status: 204,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/runners/:runner_id',
    access: access.admin,
    params: RunnerParams,
    status: 204,
  }),
}

const base = '/api/project/:project_id/runners'
const item = `${base}/:runner_id`
const READ = access.project()
const WRITE = access.project('manageProjectResources')

/** A project's own runners: members read, manageProjectResources writes. */
export const projectRunnerRoutes = {
  list: defineRoute({
    method: 'GET',
    path: base,
    access: READ,
    params: ProjectParams,
    response: z.array(Runner),
    status: 200,
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    access: WRITE,
    params: ProjectParams,
    body: CreateRunnerBody,
    response: CreatedRunner,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: item,
    access: READ,
    params: ProjectRunnerParams,
    response: Runner,
    status: 200,
  }),
  update: defineRoute({
    method: 'PUT',
    path: item,
    access: WRITE,
    params: ProjectRunnerParams,
    body: UpdateRunnerBody,
    status: 204,
  }),
  updateByPost: defineRoute({
    method: 'POST',
    path: item,
    access: WRITE,
    params: ProjectRunnerParams,
    body: UpdateRunnerBody,
    status: 204,
  }),
  setActive: defineRoute({
    method: 'POST',
    path: `${item}/active`,
    access: WRITE,
    params: ProjectRunnerParams,
    body: SetRunnerActiveBody,
    status: 204,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: item,
    access: WRITE,
    params: ProjectRunnerParams,
    status: 204,
  }),
}

/**
 * The runner side. Registration is checked against the server's registration token; every
 * other call against the runner token in `X-Runner-Token`. The poll's answer is JSON, or
 * encrypted bytes (`application/octet-stream`) when the runner has a public key.
 */
export const runnerProtocolRoutes = {
  register: defineRoute({
    method: 'POST',
    path: '/api/internal/runners',
    access: access.public,
    body: RegisterRunnerBody,
    response: RegisteredRunner,
    status: 200,
  }),
  poll: defineRoute({
    method: 'GET',
    path: '/api/internal/runners',
    access: access.public,
    query: RunnerPollQuery,
    status: 200,
  }),
  progress: defineRoute({
    method: 'PUT',
    path: '/api/internal/runners',
    access: access.public,
    body: RunnerProgressBody,
    status: 204,
  }),
  unregister: defineRoute({
    method: 'DELETE',
    path: '/api/internal/runners',
    access: access.public,
    status: 204,
  }),
}
