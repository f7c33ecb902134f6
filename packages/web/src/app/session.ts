import type { CurrentUser, Project, SystemInfo } from '@flagman/contract'
import { createContext, useContext } from 'react'

/** What every signed-in page can rely on: loaded once at start-up by the app root. */
export interface Session {
  user: CurrentUser
  info: SystemInfo
  projects: Project[]
}

export const SessionContext = createContext<Session | null>(null)

export function useSession(): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession must be used inside the signed-in part of the app')
  return session
}
