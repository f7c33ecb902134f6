import DnsIcon from '@mui/icons-material/Dns'
import type { Inventory } from '@flagman/contract'
import Box from '@mui/material/Box'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useDeleteInventory } from '../../../features/inventories/api/delete-inventory'
import { useInventories } from '../../../features/inventories/api/get-inventories'
import { fetchInventoryRefs } from '../../../features/inventories/api/get-inventory-refs'
import { InventoriesTable } from '../../../features/inventories/components/inventories-table'
import { InventoryDialog } from '../../../features/inventories/components/inventory-dialog'
import { useKeys } from '../../../features/keys/api/get-keys'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useRepositories } from '../../../features/repositories/api/get-repositories'
import { useCurrentProject } from '../../project-context'

export function InventoryRoute() {
  const { t } = useTranslation('inventories')
  const { project, can } = useCurrentProject()
  const canManage = can('manageProjectResources')
  const inventories = useInventories(project.id)
  const remove = useDeleteInventory(project.id)
  const [editing, setEditing] = useState<{ inventory: Inventory | null } | null>(null)
  const deletion = useSafeDelete((inventory: Inventory) =>
    fetchInventoryRefs(project.id, inventory.id),
  )

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <AddButton label={t('page.new')} onClick={() => setEditing({ inventory: null })} />
          ) : null
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={inventories.error} />
        {inventories.data ? (
          inventories.data.length === 0 ? (
            <EmptyState icon={<DnsIcon />} title={t('empty.title')} text={t('empty.text')} />
          ) : (
            <InventoriesTable
              inventories={inventories.data}
              canManage={canManage}
              busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
              onEdit={(inventory) => setEditing({ inventory })}
              onDelete={deletion.start}
            />
          )
        ) : inventories.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <InventoryEditDialog
            projectId={project.id}
            open={editing !== null}
            inventory={editing?.inventory ?? null}
            onClose={() => setEditing(null)}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(inventory) => t('delete.text', { name: inventory.name })}
            deletedMessage={(inventory) => t('messages.deleted', { name: inventory.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}

/** The inventory dialog with the keys and repositories to choose from. */
function InventoryEditDialog({
  projectId,
  open,
  inventory,
  onClose,
}: {
  projectId: number
  open: boolean
  inventory: Inventory | null
  onClose: () => void
}) {
  const keys = useKeys(projectId)
  const repositories = useRepositories(projectId)
  return (
    <InventoryDialog
      open={open}
      projectId={projectId}
      inventory={inventory}
      keys={keys.data ?? []}
      keysPending={keys.isPending}
      repositories={repositories.data ?? []}
      onClose={onClose}
    />
  )
}
