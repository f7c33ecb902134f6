import type { Inventory } from '@flagman/contract'
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
import { inventoryTypeLabel } from './inventory-type-label'

/** The Path column: only file inventories have a path; inline ones show a dash. */
export function inventoryPath(inventory: Pick<Inventory, 'type' | 'inventory'>): string | null {
  return inventory.type === 'file' && inventory.inventory.trim() !== '' ? inventory.inventory : null
}

export interface InventoriesTableProps {
  inventories: readonly Inventory[]
  canManage: boolean
  busyId?: number | null
  onEdit: (inventory: Inventory) => void
  onDelete: (inventory: Inventory) => void
}

export function InventoriesTable({
  inventories,
  canManage,
  busyId = null,
  onEdit,
  onDelete,
}: InventoriesTableProps) {
  const { t } = useTranslation('inventories')
  return (
    <Paper variant="outlined">
      {/* Without buttons inside, a table that scrolls sideways needs focus for the keyboard. */}
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.type')}</TableCell>
              <TableCell>{t('table.path')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {inventories.map((inventory) => {
              const path = inventoryPath(inventory)
              return (
                <TableRow key={inventory.id} hover>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{inventory.name}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {inventoryTypeLabel(t, inventory.type)}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360 }}>
                    {path ? (
                      <Typography
                        variant="body2"
                        noWrap
                        title={path}
                        sx={{ fontFamily: 'monospace' }}
                      >
                        {path}
                      </Typography>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  {canManage ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <RowActions
                        editLabel={t('table.edit', { name: inventory.name })}
                        deleteLabel={t('table.delete', { name: inventory.name })}
                        busy={busyId === inventory.id}
                        onEdit={() => onEdit(inventory)}
                        onDelete={() => onDelete(inventory)}
                      />
                    </TableCell>
                  ) : null}
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
