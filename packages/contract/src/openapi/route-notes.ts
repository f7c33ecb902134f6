import type { z } from 'zod'
import { ErrorBody } from '../common/errors.js'
import { integrationReceiverRoutes } from '../integrations/integrations.routes.js'
import {
  MAX_TERRAFORM_LOCK_INFO_BYTES,
  MAX_TERRAFORM_STATE_BYTES,
  TerraformLockInfo,
} from '../resources/terraform.schemas.js'
import { terraformBackendRoutes } from '../resources/terraform.routes.js'
import { RUNNER_TOKEN_HEADER, RunnerPollAnswer } from '../runners/runner-protocol.schemas.js'
import { runnerProtocolRoutes } from '../runners/runners.routes.js'
import { scheduleRoutes } from '../schedules/schedules.routes.js'
import { verifyTotp } from '../auth/auth.routes.js'
import { getMetrics, healthReady, ping } from '../system/system.routes.js'
import { Health } from '../system/system.schemas.js'
import { taskRoutes } from '../tasks/tasks.routes.js'
import { getTotpQr } from '../users/users.routes.js'
import type { JsonObject } from './types.js'

/** One answer as the document states it. A `null` schema is "any value of that type". */
export interface Answer {
  description: string
  content?: Record<string, z.ZodType | JsonObject | null>
  headers?: Record<string, string>
}

/**
 * What the contract's RouteDef can not say about a route: answers that are not JSON API
 * payloads (text, images, raw Terraform state), statuses besides the usual, and credentials
 * of their own (Terraform's basic authentication, the runner token).
 */
export interface RouteNotes {
  /** Added to the operation's description. */
  note?: string
  requestBody?: {
    description: string
    required: boolean
    content: Record<string, z.ZodType | JsonObject | null>
  }
  /** Answers by status, over the generated ones; `null` drops a generated one. */
  answers?: Record<number, Answer | null>
  /** Credentials instead of the session cookie or API token. */
  security?: Record<string, string[]>[]
}

/** Credentials of the routes below that are not those of a user. */
export const EXTRA_SECURITY_SCHEMES: Record<string, JsonObject> = {
  terraformBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      "A Terraform alias's login and password (its access key), or a running task's own credentials.",
  },
  runnerToken: {
    type: 'apiKey',
    in: 'header',
    name: RUNNER_TOKEN_HEADER,
    description: 'The token the runner got when it registered.',
  },
}

const error = (description: string): Answer => ({
  description,
  content: { 'application/json': ErrorBody },
})
const empty = (description: string): Answer => ({ description })

const stateText = { 'application/json': { type: 'object', description: 'Terraform state' } }
const lockInfo = { 'application/json': TerraformLockInfo }
const backendAuth = [{ terraformBasic: [] }]
const backendRefusals: Record<number, Answer> = {
  401: {
    ...error('Wrong or missing credentials for this alias.'),
    headers: { 'WWW-Authenticate': 'Basic realm of the state' },
  },
  404: error('No such alias.'),
}
const writeRefusals: Record<number, Answer> = {
  409: error('`?ID=` names a lock that is not held.'),
  423: {
    description: 'Locked by someone else; the body is the lock information of its holder.',
    content: lockInfo,
  },
}
const backendNote =
  "Terraform's and OpenTofu's `http` backend protocol, not an API call: the body is read as " +
  `raw bytes whatever its Content-Type (state at most ${MAX_TERRAFORM_STATE_BYTES} bytes, ` +
  `lock information at most ${MAX_TERRAFORM_LOCK_INFO_BYTES}). While the state is locked, ` +
  'writes must name the lock with `?ID=<lock id>`.'
const storeState: RouteNotes = {
  note: backendNote,
  security: backendAuth,
  requestBody: {
    description: 'The new state, as Terraform sends it.',
    required: true,
    content: stateText,
  },
  answers: {
    200: empty('Stored as the newest state version.'),
    400: error('Not a JSON object, or not matching its `Content-MD5` header.'),
    ...backendRefusals,
    ...writeRefusals,
  },
}
const runnerAuth = [{ runnerToken: [] }]
const runnerRefusals: Record<number, Answer> = {
  401: error('No runner token.'),
  404: error('No runner has this token (it was deleted).'),
}
const receiverAnswers: Record<number, Answer | null> = {
  200: empty('No integration has this alias.'),
  204: empty('Received; whether it started a task is recorded with the integration.'),
  // An unknown alias is answered as a known one would be refused: never 404.
  404: null,
  413: error('The body is larger than 1 MB.'),
  429: error('Too many deliveries to this alias per second.'),
}
const receiverNote =
  "A webhook receiver: the integration's own authentication method decides, so any caller may deliver."

const backend = terraformBackendRoutes
const runner = runnerProtocolRoutes
const receiver = integrationReceiverRoutes

/** Notes by route. */
export const ROUTE_NOTES = new Map<object, RouteNotes>([
  [
    healthReady,
    {
      note: 'For load balancers and orchestrators: send this instance requests only while it answers 200.',
      answers: {
        503: {
          description: 'Not ready; `checks` says which check failed and why.',
          content: { 'application/json': Health },
        },
      },
    },
  ],
  [
    getMetrics,
    {
      note: 'For Prometheus: an administrator, or a scraper sending `FLAGMAN_METRICS_TOKEN` as its bearer token (see docs/metrics.md).',
      answers: {
        200: {
          description: 'Every metric family of this instance, in the Prometheus text format 0.0.4.',
          content: { 'text/plain': { type: 'string' } },
        },
      },
    },
  ],
  [
    ping,
    {
      answers: {
        200: { description: 'The server is up.', content: { 'text/plain': { const: 'pong' } } },
      },
    },
  ],
  [
    verifyTotp,
    {
      answers: {
        200: empty('Code accepted: the session is verified.'),
        204: empty('The session needed no second factor.'),
      },
    },
  ],
  [
    getTotpQr,
    {
      answers: {
        200: {
          description: 'The `otpauth://` address as a QR code.',
          content: { 'image/png': { type: 'string', contentMediaType: 'image/png' } },
        },
      },
    },
  ],
  [
    taskRoutes.rawOutput,
    {
      answers: {
        200: {
          description: "The task's output, one line per line.",
          content: { 'text/plain': {} },
        },
      },
    },
  ],
  [scheduleRoutes.validate, { answers: { 200: empty('The expression is valid.') } }],
  [
    backend.get,
    {
      note: backendNote,
      security: backendAuth,
      answers: {
        200: {
          description: 'The current state.',
          content: stateText,
          headers: { 'Content-MD5': 'Base64 MD5 of the state' },
        },
        204: empty('There is no state yet.'),
        ...backendRefusals,
      },
    },
  ],
  [backend.post, storeState],
  [backend.put, storeState],
  [
    backend.remove,
    {
      note: backendNote,
      security: backendAuth,
      answers: { 200: empty('Every state version removed.'), ...backendRefusals, ...writeRefusals },
    },
  ],
  [
    backend.lock,
    {
      note: backendNote,
      security: backendAuth,
      requestBody: {
        description: 'Lock information; `ID` is required.',
        required: true,
        content: lockInfo,
      },
      answers: {
        200: { description: 'Locked; the body is the lock information.', content: lockInfo },
        400: error('No lock information, or no `ID` in it.'),
        ...backendRefusals,
        423: writeRefusals[423] as Answer,
      },
    },
  ],
  [
    backend.unlock,
    {
      note: `${backendNote} Without an \`ID\` (as \`terraform force-unlock\` sends) the lock is released whoever holds it.`,
      security: backendAuth,
      requestBody: {
        description: 'Lock information of the holder, or nothing.',
        required: false,
        content: lockInfo,
      },
      answers: {
        200: empty('Unlocked (or it was not locked).'),
        400: error('Malformed lock information.'),
        ...backendRefusals,
        423: writeRefusals[423] as Answer,
      },
    },
  ],
  [
    runner.register,
    {
      note: "Runner protocol: registers with the server's registration token (400 when wrong) and answers the runner's own token.",
    },
  ],
  [
    runner.poll,
    {
      note: 'Runner protocol: a long poll for work.',
      security: runnerAuth,
      answers: {
        200: {
          description:
            "Work and the state of current jobs: JSON, or encrypted with the runner's public key as bytes when it has one.",
          content: {
            'application/json': RunnerPollAnswer,
            'application/octet-stream': {
              type: 'string',
              contentMediaType: 'application/octet-stream',
            },
          },
        },
        204: empty('The runner was removed while it waited.'),
        ...runnerRefusals,
      },
    },
  ],
  [
    runner.progress,
    {
      note: 'Runner protocol: job progress and log lines.',
      security: runnerAuth,
      answers: runnerRefusals,
    },
  ],
  [
    runner.unregister,
    { note: 'Runner protocol: the runner leaves.', security: runnerAuth, answers: runnerRefusals },
  ],
  ...[receiver.get, receiver.post, receiver.options].map((route): [object, RouteNotes] => [
    route,
    { note: receiverNote, answers: receiverAnswers },
  ]),
])
