import type { AccessKey, Inventory } from '@flagman/contract'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'

export interface WorkspaceValues {
  name: string
  keyId: number | null
}

/** New or edited workspace: its name and the access key its tasks use. */
export function WorkspaceDialog({
  open,
  initial,
  keys,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean
  /** Null for a new workspace. */
  initial: WorkspaceValues | null
  keys: AccessKey[]
  pending: boolean
  error: unknown
  onSubmit: (values: WorkspaceValues) => void
  onClose: () => void
}) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const formId = useId()
  const [values, setValues] = useState<WorkspaceValues>(initial ?? { name: '', keyId: null })
  const [submitted, setSubmitted] = useState(false)
  const nameError = submitted && values.name.trim() === '' ? t('workspaces.nameRequired') : null
  const keyError = submitted && values.keyId === null ? t('workspaces.keyRequired') : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (values.name.trim() === '' || values.keyId === null) return
    onSubmit({ name: values.name.trim(), keyId: values.keyId })
  }

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={initial ? t('workspaces.editTitle') : t('workspaces.newTitle')}
      actions={
        <>
          <Button onClick={onClose} disabled={pending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" disabled={pending}>
            {initial ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ErrorAlert error={error} />
          <TextField
            label={t('workspaces.name')}
            required
            autoFocus
            value={values.name}
            error={Boolean(nameError)}
            helperText={nameError ?? t('workspaces.nameHint')}
            onChange={(event) => setValues({ ...values, name: event.target.value })}
          />
          <TextField
            select
            label={t('workspaces.key')}
            required
            value={values.keyId ?? ''}
            error={Boolean(keyError)}
            helperText={keyError ?? undefined}
            onChange={(event) => setValues({ ...values, keyId: Number(event.target.value) })}
          >
            {keys.map((key) => (
              <MenuItem key={key.id} value={key.id}>
                {key.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </form>
    </AppDialog>
  )
}

/** Attaches a workspace that no template owns yet. */
export function AttachWorkspaceDialog({
  open,
  choices,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean
  choices: Inventory[]
  pending: boolean
  error: unknown
  onSubmit: (workspace: Inventory) => void
  onClose: () => void
}) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const formId = useId()
  const [chosen, setChosen] = useState<number | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const chosenError = submitted && chosen === null ? t('workspaces.attachRequired') : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    const workspace = choices.find((item) => item.id === chosen)
    if (workspace) onSubmit(workspace)
  }

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={t('workspaces.attachTitle')}
      actions={
        <>
          <Button onClick={onClose} disabled={pending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" disabled={pending}>
            {t('workspaces.attach')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ErrorAlert error={error} />
          <TextField
            select
            required
            label={t('workspaces.workspace')}
            value={chosen ?? ''}
            error={Boolean(chosenError)}
            helperText={chosenError ?? (choices.length === 0 ? t('workspaces.noFree') : undefined)}
            onChange={(event) => setChosen(Number(event.target.value))}
          >
            {choices.map((workspace) => (
              <MenuItem key={workspace.id} value={workspace.id}>
                {workspace.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </form>
    </AppDialog>
  )
}
