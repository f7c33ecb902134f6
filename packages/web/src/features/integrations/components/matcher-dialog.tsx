import type { IntegrationMatcher } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSaveMatcher } from '../api/matchers'
import { MatcherForm, toMatcherBody } from './matcher-form'

export interface MatcherDialogProps {
  open: boolean
  projectId: number
  integrationId: number
  /** The matcher to edit; `null` creates a new one. */
  matcher: IntegrationMatcher | null
  onClose: () => void
}

export function MatcherDialog({
  open,
  projectId,
  integrationId,
  matcher,
  onClose,
}: MatcherDialogProps) {
  const { t } = useTranslation('integrations')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const save = useSaveMatcher(projectId, integrationId)

  const close = () => {
    save.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={520}
      title={matcher ? t('matchers.editTitle') : t('matchers.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={save.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={save.isPending}>
            {matcher ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={save.error} />
      {open ? (
        <MatcherForm
          key={matcher?.id ?? 'new'}
          id={formId}
          matcher={matcher}
          onSubmit={(values) =>
            save.mutate(
              { id: matcher?.id ?? null, body: toMatcherBody(values, integrationId) },
              {
                onSuccess: () => {
                  showMessage(
                    t(matcher ? 'matchers.saved' : 'matchers.created', { name: values.name }),
                  )
                  close()
                },
              },
            )
          }
        />
      ) : null}
    </AppDialog>
  )
}
