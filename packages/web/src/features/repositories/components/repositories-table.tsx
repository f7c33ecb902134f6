import type { Repository } from '@flagman/contract'
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

export interface RepositoriesTableProps {
  repositories: readonly Repository[]
  /** Key names by id, for the SSH key column. */
  keyNames: ReadonlyMap<number, string>
  canManage: boolean
  busyId?: number | null
  onEdit: (repository: Repository) => void
  onDelete: (repository: Repository) => void
}

export function RepositoriesTable({
  repositories,
  keyNames,
  canManage,
  busyId = null,
  onEdit,
  onDelete,
}: RepositoriesTableProps) {
  const { t } = useTranslation('repositories')
  return (
    <Paper variant="outlined">
      {/* Without buttons inside, a table that scrolls sideways needs focus for the keyboard. */}
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.gitUrl')}</TableCell>
              <TableCell>{t('table.sshKey')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {repositories.map((repository) => (
              <TableRow key={repository.id} hover>
                <TableCell sx={{ wordBreak: 'break-word' }}>{repository.name}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 140 }}>
                  <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
                    {repository.git_url}
                  </Typography>
                  {repository.git_branch ? (
                    <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
                      {' '}
                      ({repository.git_branch})
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {keyNames.get(repository.ssh_key_id) ?? `#${repository.ssh_key_id}`}
                </TableCell>
                {canManage ? (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editLabel={t('table.edit', { name: repository.name })}
                      deleteLabel={t('table.delete', { name: repository.name })}
                      busy={busyId === repository.id}
                      onEdit={() => onEdit(repository)}
                      onDelete={() => onDelete(repository)}
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
