import type { IntegrationDelivery } from '@flagman/contract'
import RefreshIcon from '@mui/icons-material/Refresh'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { taskSearch } from '../../tasks/components/task-log-host'
import { useDeliveries } from '../api/integrations'
import { deliveryResultLabel } from '../utils/labels'
import { Section } from './section'

export function formatDeliveryTime(created: string, language: string): string {
  const date = new Date(created)
  if (Number.isNaN(date.getTime())) return created
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
    date,
  )
}

function resultColor(result: string): 'success' | 'error' | 'warning' | 'default' {
  switch (result) {
    case 'task_started':
      return 'success'
    case 'authentication_failed':
    case 'task_refused':
      return 'error'
    case 'template_busy':
    case 'skipped_duplicate':
      return 'warning'
    default:
      return 'default'
  }
}

function DeliveryRow({ delivery }: { delivery: IntegrationDelivery }) {
  const { t, i18n } = useTranslation('integrations')
  return (
    <TableRow hover>
      <TableCell sx={{ whiteSpace: { xs: 'normal', sm: 'nowrap' }, minWidth: 110 }}>
        <time dateTime={delivery.created}>
          {formatDeliveryTime(delivery.created, i18n.language)}
        </time>
      </TableCell>
      <TableCell sx={{ wordBreak: 'break-all' }}>{delivery.source || '—'}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={resultColor(delivery.result)}
          label={deliveryResultLabel(t, delivery.result)}
        />
      </TableCell>
      <TableCell>
        {delivery.task_id !== null ? (
          <Link component={RouterLink} to={{ search: taskSearch(delivery.task_id) }}>
            {t('deliveries.taskLink', { id: delivery.task_id })}
          </Link>
        ) : (
          '—'
        )}
      </TableCell>
    </TableRow>
  )
}

/** The last deliveries to an integration; read again every few seconds and on demand. */
export function DeliveriesSection({
  projectId,
  integrationId,
}: {
  projectId: number
  integrationId: number
}) {
  const { t } = useTranslation('integrations')
  const deliveries = useDeliveries(projectId, integrationId)
  return (
    <Section
      title={t('deliveries.title')}
      text={t('deliveries.text')}
      actions={
        <Button startIcon={<RefreshIcon />} onClick={() => void deliveries.refetch()}>
          {t('deliveries.refresh')}
        </Button>
      }
    >
      <ErrorAlert error={deliveries.error} />
      {deliveries.data ? (
        deliveries.data.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 1 }}>{t('deliveries.empty')}</Typography>
        ) : (
          <TableContainer tabIndex={0}>
            <Table size="small" aria-label={t('deliveries.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('deliveries.time')}</TableCell>
                  <TableCell>{t('deliveries.source')}</TableCell>
                  <TableCell>{t('deliveries.result')}</TableCell>
                  <TableCell>{t('deliveries.task')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {deliveries.data.map((delivery) => (
                  <DeliveryRow key={delivery.id} delivery={delivery} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )
      ) : deliveries.isPending ? (
        <LoadingState />
      ) : null}
    </Section>
  )
}
