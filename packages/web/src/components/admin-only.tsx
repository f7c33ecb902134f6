import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { paths } from '../config/paths'

/**
 * What someone who is not an administrator sees on an administrators' page: why they can
 * not use it and a way back, instead of being sent elsewhere without a word.
 */
export function AdminOnly() {
  const { t } = useTranslation()
  return (
    <Box component="main" sx={{ p: { xs: 2, sm: 3 }, display: 'flex', justifyContent: 'center' }}>
      <Alert severity="info" sx={{ maxWidth: 560, width: '100%' }} role="status">
        <AlertTitle component="h1">{t('adminOnly.title')}</AlertTitle>
        {t('adminOnly.text')}
        <Box sx={{ mt: 2 }}>
          <Button component={Link} to={paths.root.href()} variant="outlined">
            {t('notFound.home')}
          </Button>
        </Box>
      </Alert>
    </Box>
  )
}
