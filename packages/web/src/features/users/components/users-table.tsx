import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase'
import type { User } from '@flagman/contract'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TablePagination from '@mui/material/TablePagination'
import TableRow from '@mui/material/TableRow'
import Tooltip from '@mui/material/Tooltip'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TABLE_ROWS_PER_PAGE } from '../../../config/constants'

export interface UsersTableProps {
  users: readonly User[]
  onEdit: (user: User) => void
  onDelete: (user: User) => void
  /** Offered for users with two-factor sign-in: removes their second factor. */
  onRemoveTwoFactor?: (user: User) => void
}

export function UsersTable({ users, onEdit, onDelete, onRemoveTwoFactor }: UsersTableProps) {
  const { t } = useTranslation('users')
  const [page, setPage] = useState(0)
  const lastPage = Math.max(0, Math.ceil(users.length / TABLE_ROWS_PER_PAGE) - 1)
  // A delete on the last page can leave it empty; show the page before it then.
  const shownPage = Math.min(page, lastPage)
  const rows = users.slice(shownPage * TABLE_ROWS_PER_PAGE, (shownPage + 1) * TABLE_ROWS_PER_PAGE)
  const flag = (value: boolean) => (value ? t('table.yes') : t('table.no'))

  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.username')}</TableCell>
              <TableCell>{t('table.email')}</TableCell>
              <TableCell>{t('table.alert')}</TableCell>
              <TableCell>{t('table.admin')}</TableCell>
              <TableCell>{t('table.external')}</TableCell>
              <TableCell>{t('table.pro')}</TableCell>
              <TableCell>{t('table.twoFactor')}</TableCell>
              <TableCell align="right">{t('table.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((user) => (
              <TableRow key={user.id} hover>
                <TableCell>{user.name}</TableCell>
                <TableCell>{user.username}</TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{flag(user.alert)}</TableCell>
                <TableCell>
                  {user.admin ? (
                    <Chip size="small" color="primary" label={t('table.yes')} />
                  ) : (
                    flag(false)
                  )}
                </TableCell>
                <TableCell>{flag(user.external)}</TableCell>
                <TableCell>{flag(user.pro)}</TableCell>
                <TableCell>{flag(Boolean(user.totp))}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {user.totp && onRemoveTwoFactor ? (
                    <Tooltip title={t('table.removeTwoFactor', { name: user.name })}>
                      <IconButton
                        onClick={() => onRemoveTwoFactor(user)}
                        aria-label={t('table.removeTwoFactor', { name: user.name })}
                      >
                        <PhonelinkEraseIcon />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                  <Tooltip title={t('table.edit', { name: user.name })}>
                    <IconButton
                      onClick={() => onEdit(user)}
                      aria-label={t('table.edit', { name: user.name })}
                    >
                      <EditIcon />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('table.delete', { name: user.name })}>
                    <IconButton
                      onClick={() => onDelete(user)}
                      aria-label={t('table.delete', { name: user.name })}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {users.length === 0 ? (
              <TableRow>
                <TableCell colSpan={9} align="center">
                  {t('table.empty')}
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={users.length}
        page={shownPage}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={TABLE_ROWS_PER_PAGE}
        rowsPerPageOptions={[TABLE_ROWS_PER_PAGE]}
        labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
      />
    </Paper>
  )
}
