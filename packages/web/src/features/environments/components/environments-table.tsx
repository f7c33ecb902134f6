import type { Environment } from '@flagman/contract'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { RowActions } from '../../../components/row-actions'

export interface EnvironmentsTableProps {
  environments: readonly Environment[]
  canManage: boolean
  busyId?: number | null
  onEdit: (environment: Environment) => void
  onDelete: (environment: Environment) => void
}

export function EnvironmentsTable({
  environments,
  canManage,
  busyId = null,
  onEdit,
  onDelete,
}: EnvironmentsTableProps) {
  const { t } = useTranslation('environments')
  return (
    <Paper variant="outlined">
      {/* Without buttons inside, a table that scrolls sideways needs focus for the keyboard. */}
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {environments.map((environment) => (
              <TableRow key={environment.id} hover>
                <TableCell sx={{ wordBreak: 'break-word' }}>
                  {environment.name}
                  {environment.image ? (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('table.image', { image: environment.image })}
                    </Typography>
                  ) : null}
                </TableCell>
                {canManage ? (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editLabel={t('table.edit', { name: environment.name })}
                      deleteLabel={t('table.delete', { name: environment.name })}
                      busy={busyId === environment.id}
                      onEdit={() => onEdit(environment)}
                      onDelete={() => onDelete(environment)}
                    />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
