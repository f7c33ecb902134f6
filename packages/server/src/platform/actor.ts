import type { ProjectRole } from '@flagman/contract'

/** The signed-in user behind a request. */
export interface Actor {
  id: number
  username: string
  name: string
  email: string
  admin: boolean
  external: boolean
  pro: boolean
  /** Session row id when signed in by cookie; null for API tokens. */
  sessionId: number | null
  /** API token row id when signed in by token; null for sessions. */
  tokenId: number | null
  via: 'cookie' | 'token'
}

/** The caller's standing in the project named by the route. */
export interface ProjectAccess {
  projectId: number
  role: ProjectRole | ''
  permissions: number
}

/** The caller's row in a project, read together with the caller (see resolveCaller). */
export interface ProjectMembership {
  projectId: number
  /** Whether the project exists at all. */
  exists: boolean
  /** The caller's role in it; null when they are not a member. */
  role: string | null
}
