import EventIcon from '@mui/icons-material/Event'
import WebhookIcon from '@mui/icons-material/Webhook'
import Link from '@mui/material/Link'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths'
import type { TaskOriginNames } from '../api/task-origins'

/** What a task says about who or what started it. */
export interface TaskOriginFields {
  project_id: number
  user_name?: string | null
  integration_id: number | null
  schedule_id: number | null
}

function OriginLink({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Link
      component={RouterLink}
      to={to}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, verticalAlign: 'middle' }}
    >
      {icon}
      {children}
    </Link>
  )
}

/**
 * The person who started a task, or the integration or schedule that did, linked to its page.
 * `userName` overrides the task's own `user_name` (the log dialog finds it in the team).
 */
export function TaskOrigin({
  task,
  names,
  userName = task.user_name ?? null,
}: {
  task: TaskOriginFields
  names: TaskOriginNames
  userName?: string | null
}) {
  const { t } = useTranslation('tasks')
  if (userName) return <>{userName}</>
  if (task.integration_id !== null) {
    const name = names.integrations.get(task.integration_id) ?? `#${task.integration_id}`
    return (
      <OriginLink
        to={paths.projectIntegration.href(task.project_id, task.integration_id)}
        icon={<WebhookIcon fontSize="inherit" />}
      >
        {t('origin.integration', { name })}
      </OriginLink>
    )
  }
  if (task.schedule_id !== null) {
    const name = names.schedules.get(task.schedule_id) ?? `#${task.schedule_id}`
    return (
      <OriginLink
        to={paths.projectSchedule.href(task.project_id)}
        icon={<EventIcon fontSize="inherit" />}
      >
        {t('origin.schedule', { name })}
      </OriginLink>
    )
  }
  return <>—</>
}
