import type { UseMutationResult } from '@tanstack/react-query'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import type { SafeDelete } from '../hooks/use-safe-delete'
import { ReferencesDialog } from './references-dialog'

export interface SafeDeleteDialogsProps<T> {
  projectId: number
  deletion: SafeDelete<T>
  /** What is being deleted, in words: "key", "repository"… */
  object: string
  confirmTitle: string
  confirmText: (item: T) => string
  deletedMessage: (item: T) => string
  remove: Pick<UseMutationResult<T, Error, T>, 'mutate' | 'isPending'>
}

/**
 * The dialogs of a safe delete: the references dialog when the item is in use, otherwise the
 * confirmation. The outcome is told in a snackbar, a refusal by the server too.
 */
export function SafeDeleteDialogs<T>({
  projectId,
  deletion,
  object,
  confirmTitle,
  confirmText,
  deletedMessage,
  remove,
}: SafeDeleteDialogsProps<T>) {
  const { showMessage } = useSnackbar()
  const { state } = deletion
  return (
    <>
      <ReferencesDialog
        open={state?.step === 'references'}
        projectId={projectId}
        object={object}
        refs={state?.step === 'references' ? state.refs : null}
        onClose={deletion.close}
      />
      <ConfirmDialog
        open={state?.step === 'confirm'}
        title={confirmTitle}
        text={state ? confirmText(state.item) : ''}
        pending={remove.isPending}
        onClose={deletion.close}
        onConfirm={() => {
          if (!state) return
          remove.mutate(state.item, {
            onSuccess: (deleted) => {
              showMessage(deletedMessage(deleted))
              deletion.close()
            },
            onError: (error) => {
              showMessage(getErrorText(error), 'error')
              deletion.close()
            },
          })
        }}
      />
    </>
  )
}
