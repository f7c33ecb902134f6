import { z } from 'zod'

/** Permission bits of a project role (wire values). */
export const Permission = {
  runProjectTasks: 1,
  updateProject: 2,
  manageProjectResources: 4,
  manageProjectUsers: 8,
} as const
export type PermissionName = keyof typeof Permission

export const PROJECT_ROLES = ['owner', 'manager', 'task_runner', 'guest'] as const
export const ProjectRole = z.enum(PROJECT_ROLES, {
  error: 'role must be one of owner, manager, task_runner, guest',
})
export type ProjectRole = z.infer<typeof ProjectRole>

/** Which bits each role holds. The mapping is part of the compatible API. */
export const ROLE_PERMISSIONS: Record<ProjectRole, number> = {
  owner: 15,
  manager: 5,
  task_runner: 1,
  guest: 0,
}

export function hasPermission(permissions: number, name: PermissionName): boolean {
  return (permissions & Permission[name]) !== 0
}
