import type { AccessKey } from '@flagman/contract'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'

/**
 * New alias, or another key for an alias: the login-with-password key whose login and password
 * Terraform must send to use the address.
 */
export function AliasDialog({
  open,
  editing,
  initialKeyId,
  keys,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean
  /** True when an existing alias gets another key. */
  editing: boolean
  initialKeyId: number | null
  keys: readonly AccessKey[]
  pending: boolean
  error: unknown
  onSubmit: (keyId: number) => void
  onClose: () => void
}) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const formId = useId()
  // Only these keys carry a login and a password the backend can check.
  const choices = keys.filter((key) => key.type === 'login_password')
  const [keyId, setKeyId] = useState<number | null>(
    choices.some((key) => key.id === initialKeyId) ? initialKeyId : null,
  )
  const [submitted, setSubmitted] = useState(false)
  const keyError = submitted && keyId === null ? t('terraform.aliasDialog.keyRequired') : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (keyId !== null) onSubmit(keyId)
  }

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={editing ? t('terraform.aliasDialog.editTitle') : t('terraform.aliasDialog.newTitle')}
      actions={
        <>
          <Button onClick={onClose} disabled={pending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={pending}>
            {editing ? tc('actions.save') : tc('actions.create')}
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
            autoFocus
            label={t('terraform.aliasDialog.key')}
            value={keyId ?? ''}
            error={Boolean(keyError)}
            helperText={
              keyError ??
              (choices.length === 0
                ? t('terraform.aliasDialog.noKeys')
                : t('terraform.aliasDialog.keyHint'))
            }
            onChange={(event) => setKeyId(Number(event.target.value))}
          >
            {choices.map((key) => (
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
