import type { Event } from '@flagman/contract'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import { useTranslation } from 'react-i18next'

export function formatEventTime(created: string, language: string): string {
  const date = new Date(created)
  if (Number.isNaN(date.getTime())) return created
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
    date,
  )
}

export function EventsTable({ events }: { events: readonly Event[] }) {
  const { t, i18n } = useTranslation('activity')
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
              <TableRow key={`${event.created}-${index}`} hover>
                <TableCell sx={{ whiteSpace: { xs: 'normal', sm: 'nowrap' }, minWidth: 110 }}>
                  <time dateTime={event.created}>
                    {formatEventTime(event.created, i18n.language)}
                  </time>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {event.username ?? t('table.noUser')}
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-word', minWidth: 180 }}>
                  {event.description}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
