import { MAX_SUBSCRIPTION_KEY_LENGTH, type Subscription } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Button from '@mui/material/Button'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableRow from '@mui/material/TableRow'
import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { FormTextField } from '../../../components/form-text-field'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { formatDateTime } from '../../../lib/format'
import { useActivateSubscription, useSubscription } from '../api/subscription'

export function subscriptionFormSchema(t: TFunction<'subscription'>) {
  return z.object({
    key: z
      .string()
      .trim()
      .min(1, t('form.keyRequired'))
      .max(MAX_SUBSCRIPTION_KEY_LENGTH, t('form.keyTooLong', { max: MAX_SUBSCRIPTION_KEY_LENGTH })),
  })
}

type FormValues = z.input<ReturnType<typeof subscriptionFormSchema>>

/** A server that refuses a key it already holds says so; that is a warning, not an error. */
export function isAlreadyActivated(message: string): boolean {
  return message.includes('already activated')
}

function SubscriptionSummary({ subscription }: { subscription: Subscription }) {
  const { t, i18n } = useTranslation('subscription')
  if (subscription.all_features_included) {
    return (
      <Alert severity="success" role="note" sx={{ mb: 2 }}>
        <AlertTitle>{t('community.title')}</AlertTitle>
        {t('community.text')}
      </Alert>
    )
  }
  const rows: Array<[string, string]> = [
    [t('fields.plan'), subscription.plan || '—'],
    [t('fields.state'), t(`states.${subscription.state}`)],
    [t('fields.expiresAt'), formatDateTime(subscription.expiresAt, i18n.language)],
    [t('fields.users'), subscription.users === null ? '—' : String(subscription.users)],
  ]
  return (
    <Table size="small" sx={{ mb: 2 }} aria-label={t('title')}>
      <TableBody>
        {rows.map(([label, value]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row">
              {label}
            </TableCell>
            <TableCell>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

export interface SubscriptionDialogProps {
  open: boolean
  onClose: () => void
}

/** The server's subscription, and a form to activate a key. It stays open after saving. */
export function SubscriptionDialog({ open, onClose }: SubscriptionDialogProps) {
  const { t } = useTranslation('subscription')
  const { t: tCommon } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const subscription = useSubscription(open)
  const activate = useActivateSubscription()
  const schema = useMemo(() => subscriptionFormSchema(t), [t])
  const { control, handleSubmit, reset } = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: { key: '' },
    mode: 'onTouched',
  })

  const close = () => {
    activate.reset()
    reset({ key: '' })
    onClose()
  }

  const failure = activate.error ? getErrorText(activate.error) : null
  const activeOrExpired =
    subscription.data?.state === 'active' || subscription.data?.state === 'expired'

  return (
    <AppDialog
      open={open}
      onClose={close}
      title={t('title')}
      actions={
        <>
          <Button onClick={close}>{tCommon('actions.close')}</Button>
          <Button
            type="submit"
            form={formId}
            variant="contained"
            disabled={activate.isPending || !subscription.data}
          >
            {activeOrExpired ? t('form.reactivate') : t('form.activate')}
          </Button>
        </>
      }
    >
      {subscription.isPending ? <LoadingState /> : null}
      {subscription.isError ? <ErrorAlert error={subscription.error} /> : null}
      {subscription.data ? <SubscriptionSummary subscription={subscription.data} /> : null}
      {failure !== null && isAlreadyActivated(failure) ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : (
        <ErrorAlert text={failure} />
      )}
      <form
        id={formId}
        noValidate
        onSubmit={handleSubmit((values) =>
          activate.mutate(values, { onSuccess: () => showMessage(t('activated')) }),
        )}
      >
        <FormTextField
          control={control}
          name="key"
          label={t('form.key')}
          required
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      </form>
    </AppDialog>
  )
}
