import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useTranslation } from 'react-i18next'
import { getErrorText } from '../lib/error-text'

export interface ErrorStateProps {
  error: unknown
  onRelogin: () => void
}

/** The full-page state when the console cannot start: the reason, and two ways out. */
export function ErrorState({ error, onRelogin }: ErrorStateProps) {
  const { t } = useTranslation()
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
      }}
    >
      <Alert severity="error" sx={{ maxWidth: 560, width: '100%' }}>
        <AlertTitle>{t('states.errorTitle')}</AlertTitle>
        {getErrorText(error) || t('states.unknownError')}
        <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button variant="contained" color="error" onClick={() => window.location.reload()}>
            {t('actions.refreshPage')}
          </Button>
          <Button variant="outlined" color="error" onClick={onRelogin}>
            {t('actions.relogin')}
          </Button>
        </Stack>
      </Alert>
    </Box>
  )
}
