import { hasPermission, type PermissionName, type Project } from '@flagman/contract'
import { createContext, useContext } from 'react'

export interface ProjectContextValue {
  project: Project
  /** Position in the project list; picks the badge colour. */
  index: number
  role: string
  permissions: number
  isAdmin: boolean
  /** Admins may do everything; members as their role's permission bits say. */
  can: (permission: PermissionName) => boolean
}

export const ProjectContext = createContext<ProjectContextValue | null>(null)

export function useCurrentProject(): ProjectContextValue {
  const value = useContext(ProjectContext)
  if (!value) throw new Error('useCurrentProject must be used inside a project route')
  return value
}

export function makeCan(isAdmin: boolean, permissions: number) {
  return (permission: PermissionName) => isAdmin || hasPermission(permissions, permission)
}
