import type { CreatedRunner } from '@flagman/contract'
import DownloadIcon from '@mui/icons-material/Download'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { copyText } from '../../integrations/utils/copy-text'
import {
  cutRunnerKey,
  downloadText,
  RUNNER_KEY_FILE,
  runnerStartCommand,
} from '../utils/runner-secret'
import { SecretField } from './secret-field'

export interface RunnerSecretDialogProps {
  /** The runner just created; `null` keeps the dialog closed. */
  runner: CreatedRunner | null
  /** The server address the runner should reach. */
  serverUrl: string
  onClose: () => void
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The token and private key of a new runner, shown this once (the server keeps only a hash
 * and the public half), with the command that starts the runner.
 */
export function RunnerSecretDialog({
  runner: current,
  serverUrl,
  onClose,
}: RunnerSecretDialogProps) {
  const { t } = useTranslation('runners')
  // The last runner stays shown while the dialog fades out after closing.
  const [runner, setRunner] = useState(current)
  if (current !== null && current !== runner) setRunner(current)
  const { showMessage } = useSnackbar()
  const copy = (text: string, done: string) =>
    copyText(text).then(
      () => showMessage(done),
      (error: unknown) => showMessage(t('secret.copyFailed', { reason: reasonOf(error) }), 'error'),
    )
  const command = runner
    ? runnerStartCommand({ server: serverUrl, token: runner.token, tags: runner.tag })
    : ''

  return (
    <AppDialog
      open={current !== null}
      // Closing by the backdrop or Escape would lose the secrets: only the button closes.
      onClose={() => undefined}
      width={640}
      title={t('secret.title', { name: runner?.name ?? '' })}
      actions={
        <Button variant="contained" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
    >
      {runner ? (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{t('secret.warning')}</Alert>
          <SecretField
            label={t('secret.token')}
            value={runner.token}
            copyLabel={t('secret.copyToken')}
            onCopy={() => void copy(runner.token, t('secret.tokenCopied'))}
          />
          <SecretField
            label={t('secret.privateKey')}
            value={cutRunnerKey(runner.private_key)}
            multiline
            helperText={t('secret.privateKeyHint')}
            copyLabel={t('secret.copyKey')}
            onCopy={() => void copy(runner.private_key, t('secret.keyCopied'))}
          />
          <Box>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => downloadText(RUNNER_KEY_FILE, runner.private_key)}
            >
              {t('secret.download', { file: RUNNER_KEY_FILE })}
            </Button>
          </Box>
          <SecretField
            label={t('secret.command')}
            value={command}
            multiline
            helperText={t('secret.commandHint', { file: RUNNER_KEY_FILE })}
            copyLabel={t('secret.copyCommand')}
            onCopy={() => void copy(command, t('secret.commandCopied'))}
          />
        </Stack>
      ) : null}
    </AppDialog>
  )
}
