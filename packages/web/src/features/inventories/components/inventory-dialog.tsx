import type { Inventory } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateInventory } from '../api/create-inventory'
import { useUpdateInventory } from '../api/update-inventory'
import { type Choice, InventoryForm, type KeyChoice, toInventoryBody } from './inventory-form'

export interface InventoryDialogProps {
  open: boolean
  projectId: number
  /** The inventory to edit; `null` creates a new one. */
  inventory: Inventory | null
  keys: readonly KeyChoice[]
  repositories: readonly Choice[]
  keysPending?: boolean
  onClose: () => void
}

export function InventoryDialog({
  open,
  projectId,
  inventory,
  keys,
  repositories,
  keysPending,
  onClose,
}: InventoryDialogProps) {
  const { t } = useTranslation('inventories')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateInventory(projectId)
  const update = useUpdateInventory(projectId)
  const mutation = inventory ? update : create

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={600}
      title={inventory ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {inventory ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <InventoryForm
          key={inventory?.id ?? 'new'}
          id={formId}
          inventory={inventory}
          keys={keys}
          repositories={repositories}
          keysPending={keysPending}
          onSubmit={(values) => {
            const body = toInventoryBody(values, projectId)
            if (inventory) {
              update.mutate(
                { ...body, id: inventory.id, template_id: inventory.template_id },
                {
                  onSuccess: () => {
                    showMessage(t('messages.saved', { name: values.name }))
                    close()
                  },
                },
              )
            } else {
              create.mutate(body, {
                onSuccess: (created) => {
                  showMessage(t('messages.created', { name: created.name }))
                  close()
                },
              })
            }
          }}
        />
      ) : null}
    </AppDialog>
  )
}
