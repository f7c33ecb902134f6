import type { ProjectRole } from '@flagman/contract'
import type { TFunction } from 'i18next'

export function roleLabel(t: TFunction<'team'>, role: ProjectRole): string {
  switch (role) {
    case 'owner':
      return t('roles.owner')
    case 'manager':
      return t('roles.manager')
    case 'task_runner':
      return t('roles.task_runner')
    case 'guest':
      return t('roles.guest')
  }
}
