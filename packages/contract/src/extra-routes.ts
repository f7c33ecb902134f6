import { z } from 'zod'
import { OIDC_ERRORS, OIDC_LOGIN_PATH, OIDC_REDIRECT_PATH } from './auth/auth.schemas.js'
import { ErrorBody } from './common/errors.js'
import { access, type Access } from './http.js'
import { RealtimeMessage } from './realtime/realtime.schemas.js'

/** One answer of an extra route: what it means, and its body when it has one. */
export interface ExtraAnswer {
  readonly description: string
  /** Media type of the body; absent for an answer without one. */
  readonly contentType?: string
  readonly schema?: z.ZodType
  /** Response headers worth knowing, by name: what each carries. */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A route the server mounts itself rather than through the contract router, because it does
 * not answer with an API payload: the browser redirects of single sign-on, the websocket,
 * the API document and its page. Listed so that the API document covers every `/api` route,
 * while `ROUTES` keeps meaning "mounted by the router".
 */
export interface ExtraRoute {
  readonly method: 'GET'
  /** Fastify-style path, as in RouteDef. */
  readonly path: string
  readonly access: Access
  readonly params?: z.ZodType
  readonly query?: z.ZodType
  readonly summary: string
  readonly description: string
  /** Every answer, by status. */
  readonly answers: Readonly<Record<number, ExtraAnswer>>
}

const errorBody = { contentType: 'application/json', schema: ErrorBody } as const
const ProviderParams = z.object({ provider_id: z.string() })
const toSignInPage = `a redirect to the console's sign-in page with \`?error=\` (one of ${OIDC_ERRORS.join(', ')})`

export const oidcLogin: ExtraRoute = {
  method: 'GET',
  path: OIDC_LOGIN_PATH,
  access: access.public,
  params: ProviderParams,
  query: z.object({
    redirect: z.string().optional().describe('Console path to return to once signed in'),
  }),
  summary: 'Start single sign-on with a provider',
  description:
    'Opened by the browser, not called as an API: sends it to the provider, with a ' +
    'short-lived `oauthstate` cookie binding the sign-on to this browser.',
  answers: {
    307: {
      description: `To the provider's authorization page; on any failure, ${toSignInPage}.`,
      headers: { Location: 'Where the browser goes next' },
    },
  },
}

export const oidcRedirect: ExtraRoute = {
  method: 'GET',
  path: OIDC_REDIRECT_PATH,
  access: access.public,
  params: ProviderParams,
  query: z.object({
    code: z.string().optional(),
    state: z.string().optional(),
    error: z.string().optional(),
  }),
  summary: 'Finish single sign-on (the provider sends the browser back here)',
  description:
    "Checks `state` against the `oauthstate` cookie, exchanges `code`, and signs the user in by the provider's email claim.",
  answers: {
    307: {
      description: `Signed in: the session cookie \`semaphore\` is set and the browser goes to the page it started from. On any failure, ${toSignInPage}.`,
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The session cookie' },
    },
  },
}

export const realtimeSocket: ExtraRoute = {
  method: 'GET',
  path: '/api/ws',
  access: access.auth,
  summary: 'Live task updates and output (websocket)',
  description:
    'A websocket upgrade. The server pushes one JSON message per text frame (the schema of ' +
    "the 101 answer), each only for tasks of projects the user can read; the client's frames are ignored.",
  answers: {
    101: {
      description: 'Switched to the websocket protocol; messages follow.',
      contentType: 'application/json',
      schema: RealtimeMessage,
    },
    400: { description: 'Not a websocket upgrade request.', ...errorBody },
    401: { description: 'Not signed in.', ...errorBody },
    403: { description: "Opened from another site's page with a cookie.", ...errorBody },
  },
}

export const openApiDocument: ExtraRoute = {
  method: 'GET',
  path: '/api/openapi.json',
  access: access.public,
  summary: 'This API document (OpenAPI 3.1)',
  description: 'Generated from the same contract the server validates requests with.',
  answers: { 200: { description: 'The document.', contentType: 'application/json' } },
}

export const apiDocsPage: ExtraRoute = {
  method: 'GET',
  path: '/api/docs',
  access: access.public,
  summary: 'The API reference, rendered (Swagger UI)',
  description:
    'A page for people. Its files (scripts, styles, and the document it shows as `json` and ' +
    '`yaml`) are served by this server under `/api/docs/`.',
  answers: { 200: { description: 'The page.', contentType: 'text/html' } },
}

/** Every `/api` route the server mounts outside the contract router. */
export const EXTRA_ROUTES: readonly ExtraRoute[] = [
  oidcLogin,
  oidcRedirect,
  realtimeSocket,
  openApiDocument,
  apiDocsPage,
]
