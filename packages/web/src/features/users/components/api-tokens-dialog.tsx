import type { ApiToken } from '@flagman/contract'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateToken, useRevokeToken, useTokens } from '../api/tokens'
import { copyToClipboard } from '../utils/copy-to-clipboard'
import { CreateTokenForm } from './create-token-form'
import { TokensTable } from './tokens-table'
import { CopyField } from './two-factor-section'

/** The server's rendered reference of its HTTP API. */
const API_REFERENCE_URL = '/api/docs'

/** Wide enough for the token table's five columns. */
const TOKENS_DIALOG_WIDTH = 880

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The new token, shown whole this once, with a button that copies it. */
function NewToken({ token, onDone }: { token: ApiToken; onDone: () => void }) {
  const { t } = useTranslation('users')
  const { showMessage } = useSnackbar()
  const copy = async () => {
    try {
      await copyToClipboard(token.id)
      showMessage(t('tokens.copied'))
    } catch (error) {
      showMessage(t('tokens.copyFailed', { reason: reasonOf(error) }), 'error')
    }
  }
  return (
    <Stack spacing={1.5} sx={{ mb: 2 }}>
      <Alert severity="warning">{t('tokens.shownOnce')}</Alert>
      <CopyField
        label={t('tokens.newToken', { name: token.name || token.prefix })}
        value={token.id}
        monospace
        copyLabel={t('tokens.copy')}
        onCopy={() => void copy()}
      />
      <Box>
        <Button variant="outlined" onClick={onDone}>
          {t('tokens.done')}
        </Button>
      </Box>
    </Stack>
  )
}

/** The list and forms; mounted only while the dialog is open, so it loads afresh each time. */
function TokensContent() {
  const { t } = useTranslation('users')
  const { showMessage } = useSnackbar()
  const tokens = useTokens()
  const create = useCreateToken()
  const revoke = useRevokeToken()
  const [created, setCreated] = useState<ApiToken | null>(null)
  const [revoking, setRevoking] = useState<ApiToken | null>(null)
  // A new form after each creation, so the fields start empty again.
  const [formKey, setFormKey] = useState(0)

  const closeRevoke = () => {
    revoke.reset()
    setRevoking(null)
  }

  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('tokens.intro')}{' '}
        <Link href={API_REFERENCE_URL} target="_blank" rel="noopener">
          {t('tokens.apiReference')}
        </Link>
      </Typography>
      <ErrorAlert error={create.error} />
      {created ? (
        <NewToken token={created} onDone={() => setCreated(null)} />
      ) : (
        <Box sx={{ mb: 2 }}>
          <CreateTokenForm
            key={formKey}
            pending={create.isPending}
            onSubmit={(body) =>
              create.mutate(body, {
                onSuccess: (token) => {
                  setCreated(token)
                  setFormKey((k) => k + 1)
                  showMessage(t('tokens.createdMessage', { name: token.name || token.prefix }))
                },
              })
            }
          />
        </Box>
      )}
      <Divider sx={{ mb: 2 }} />
      <ErrorAlert error={tokens.error} />
      {tokens.isPending ? (
        <LoadingState />
      ) : tokens.data && tokens.data.length > 0 ? (
        <TokensTable tokens={tokens.data} onRevoke={setRevoking} />
      ) : tokens.data ? (
        <Typography variant="body2" color="text.secondary">
          {t('tokens.empty')}
        </Typography>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={t('tokens.revokeTitle')}
        text={t('tokens.revokeText', { name: revoking?.name || revoking?.prefix || '' })}
        confirmLabel={t('tokens.revoke')}
        pending={revoke.isPending}
        error={revoke.error}
        onClose={closeRevoke}
        onConfirm={() => {
          if (!revoking) return
          revoke.mutate(revoking, {
            onSuccess: (token) => {
              showMessage(t('tokens.revoked', { name: token.name || token.prefix }))
              closeRevoke()
            },
          })
        }}
      />
    </>
  )
}

export interface ApiTokensDialogProps {
  open: boolean
  onClose: () => void
}

/** The signed-in user's API tokens: create one (shown once), see when each was used, revoke. */
export function ApiTokensDialog({ open, onClose }: ApiTokensDialogProps) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={t('tokens.title')}
      width={TOKENS_DIALOG_WIDTH}
      actions={<Button onClick={onClose}>{tc('actions.close')}</Button>}
    >
      {open ? <TokensContent /> : null}
    </AppDialog>
  )
}
