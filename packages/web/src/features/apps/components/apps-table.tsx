import { type App, isDefaultApp } from '@flagman/contract'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Switch from '@mui/material/Switch'
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

export interface AppsTableProps {
  apps: readonly App[]
  busyId?: string | null
  onToggleActive: (app: App, active: boolean) => void
  onEdit: (app: App) => void
  onDelete: (app: App) => void
}

export function sortApps(apps: readonly App[]): App[] {
  return [...apps].sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id))
}

export function AppsTable({
  apps,
  busyId = null,
  onToggleActive,
  onEdit,
  onDelete,
}: AppsTableProps) {
  const { t } = useTranslation('apps')
  const [page, setPage] = useState(0)
  const sorted = sortApps(apps)
  const lastPage = Math.max(0, Math.ceil(sorted.length / TABLE_ROWS_PER_PAGE) - 1)
  const shownPage = Math.min(page, lastPage)
  const rows = sorted.slice(shownPage * TABLE_ROWS_PER_PAGE, (shownPage + 1) * TABLE_ROWS_PER_PAGE)
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.active')}</TableCell>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.id')}</TableCell>
              <TableCell align="right">{t('table.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((app) => {
              const name = app.title || app.id
              return (
                <TableRow key={app.id} hover>
                  <TableCell>
                    <Switch
                      checked={app.active}
                      disabled={busyId === app.id}
                      onChange={(event) => onToggleActive(app, event.target.checked)}
                      slotProps={{ input: { 'aria-label': t('table.activate', { name }) } }}
                    />
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Box
                        aria-hidden
                        sx={{
                          width: 12,
                          height: 12,
                          borderRadius: '50%',
                          flexShrink: 0,
                          bgcolor: app.color || 'action.disabled',
                        }}
                      />
                      {name}
                      {isDefaultApp(app.id) ? (
                        <Chip size="small" variant="outlined" label={t('table.default')} />
                      ) : null}
                    </Box>
                  </TableCell>
                  <TableCell>
                    <code>{app.id}</code>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('table.edit', { name })}>
                      <IconButton
                        aria-label={t('table.edit', { name })}
                        onClick={() => onEdit(app)}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    {isDefaultApp(app.id) ? null : (
                      <Tooltip title={t('table.delete', { name })}>
                        <IconButton
                          aria-label={t('table.delete', { name })}
                          onClick={() => onDelete(app)}
                        >
                          <DeleteIcon />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={sorted.length}
        page={shownPage}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={TABLE_ROWS_PER_PAGE}
        rowsPerPageOptions={[TABLE_ROWS_PER_PAGE]}
        labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
      />
    </Paper>
  )
}
