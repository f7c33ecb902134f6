import type { Event } from '@flagman/contract'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../../lib/format'
import { eventParts } from '../utils/describe-event'

/** An event's description, reworded from its parts when it is a common one. */
function EventDescription({ event }: { event: Event }) {
  const { t } = useTranslation('activity')
  const parts = eventParts(event)
  if (!parts) return <>{event.description}</>
  const object = parts.name ?? `#${parts.id}`
  return <>{t(`events.${parts.action}`, { type: t(`objects.${parts.type}`), object })}</>
}

export function EventsTable({ events }: { events: readonly Event[] }) {
  const { t } = useTranslation('activity')
  const format = useFormat()
  return (
    <Paper variant="outlined">
      {/* Without buttons inside, a table that scrolls sideways needs focus for the keyboard. */}
      <TableContainer tabIndex={0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.created')}</TableCell>
              <TableCell>{t('table.username')}</TableCell>
              <TableCell>{t('table.description')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {events.map((event, index) => (
              <TableRow key={event.id ?? `${event.created}-${index}`} hover>
                <TableCell sx={{ whiteSpace: { xs: 'normal', sm: 'nowrap' }, minWidth: 110 }}>
                  <time dateTime={event.created}>{format.dateTime(event.created)}</time>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {event.username ?? t('table.noUser')}
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-word', minWidth: 180 }}>
                  <EventDescription event={event} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
