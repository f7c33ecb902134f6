import { hasPermission } from '@flagman/contract'

export type RoleBanner = 'runTasks' | 'readOnly'

/**
 * The notice a member sees on the project dashboard about what their role allows: members who
 * may only run tasks, and members who may only look. Admins and members who may change the
 * project or its resources see none.
 */
export function roleBanner(isAdmin: boolean, permissions: number): RoleBanner | null {
  if (isAdmin) return null
  if (hasPermission(permissions, 'updateProject')) return null
  if (hasPermission(permissions, 'manageProjectResources')) return null
  if (hasPermission(permissions, 'manageProjectUsers')) return null
  return hasPermission(permissions, 'runProjectTasks') ? 'runTasks' : 'readOnly'
}
