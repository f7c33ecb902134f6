import Box from '@mui/material/Box'
import CircularProgress from '@mui/material/CircularProgress'
import { useTranslation } from 'react-i18next'

export function LoadingState({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useTranslation()
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: fullPage ? '100vh' : 200,
      }}
    >
      <CircularProgress aria-label={t('states.loading')} />
    </Box>
  )
}
