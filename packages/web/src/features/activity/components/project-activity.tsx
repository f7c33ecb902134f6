import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useEvents } from '../api/get-events'
import { EventsTable } from './events-table'

/** A project's activity, newest first; "Show more" loads the page of older events. */
export function ProjectActivity({ projectId }: { projectId: number }) {
  const { t } = useTranslation('activity')
  const events = useEvents(projectId)
  if (events.isPending) return <LoadingState />
  if (!events.data) return <ErrorAlert error={events.error} />
  if (events.data.length === 0) {
    return (
      <EmptyState
        icon={<NotificationsNoneIcon />}
        title={t('empty.title')}
        text={t('empty.text')}
      />
    )
  }
  return (
    <>
      <ErrorAlert error={events.error} />
      <EventsTable events={events.data} />
      {events.hasNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Button
            variant="outlined"
            loading={events.isFetchingNextPage}
            onClick={() => void events.fetchNextPage()}
          >
            {t('list.showMore')}
          </Button>
        </Box>
      )}
    </>
  )
}
