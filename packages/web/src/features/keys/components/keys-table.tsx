import type { AccessKey } from '@flagman/contract'
import Chip from '@mui/material/Chip'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import { useTranslation } from 'react-i18next'
import { RowActions } from '../../../components/row-actions'
import { keyTypeLabel } from './key-type-label'

export interface KeysTableProps {
  keys: readonly AccessKey[]
  /** Whether the viewer may edit and delete keys. */
  canManage: boolean
  busyId?: number | null
  onEdit: (key: AccessKey) => void
  onDelete: (key: AccessKey) => void
}

export function KeysTable({ keys, canManage, busyId = null, onEdit, onDelete }: KeysTableProps) {
  const { t } = useTranslation('keys')
  return (
    <Paper variant="outlined">
      {/* Without buttons inside, a table that scrolls sideways needs focus for the keyboard. */}
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.type')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {keys.map((key) => (
              <TableRow key={key.id} hover>
                <TableCell sx={{ wordBreak: 'break-word' }}>{key.name}</TableCell>
                <TableCell>
                  {keyTypeLabel(t, key.type)}
                  {key.empty && key.type !== 'none' ? (
                    <Chip
                      size="small"
                      color="warning"
                      variant="outlined"
                      label={t('table.noSecret')}
                      sx={{ ml: 1 }}
                    />
                  ) : null}
                </TableCell>
                {canManage ? (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editLabel={t('table.edit', { name: key.name })}
                      deleteLabel={t('table.delete', { name: key.name })}
                      busy={busyId === key.id}
                      onEdit={() => onEdit(key)}
                      onDelete={() => onDelete(key)}
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
