import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone'
import Box from '@mui/material/Box'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useEvents } from '../../../features/activity/api/get-events'
import { EventsTable } from '../../../features/activity/components/events-table'
import { useCurrentProject } from '../../project-context'

export function ActivityRoute() {
  const { t } = useTranslation('activity')
  const { project } = useCurrentProject()
  const events = useEvents(project.id)

  return (
    <>
      <PageHeader title={t('page.title')} />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={events.error} />
        {events.data ? (
          events.data.length === 0 ? (
            <EmptyState
              icon={<NotificationsNoneIcon />}
              title={t('empty.title')}
              text={t('empty.text')}
            />
          ) : (
            <EventsTable events={events.data} />
          )
        ) : events.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
    </>
  )
}
