import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'

/** Commands of the server's command-line tool; they are typed as shown, in any language. */
const COMMANDS = {
  listUsers: 'flagman user list',
  changePassword: 'flagman user change-by-login --login L --password P',
  addAdmin: 'flagman user add --admin --login L --password P --name N --email E',
} as const

export function LoginHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth')
  const { t: tc } = useTranslation()
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={t('help.title')}
      width={520}
      actions={<Button onClick={onClose}>{tc('actions.close')}</Button>}
    >
      <Typography sx={{ mb: 2 }}>{t('help.intro')}</Typography>
      {(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).map((key) => (
        <Box key={key} sx={{ mb: 2 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t(`help.${key}`)}
          </Typography>
          <Box
            component="pre"
            sx={{
              m: 0,
              p: 1,
              borderRadius: 1,
              bgcolor: 'action.hover',
              fontFamily: 'monospace',
              fontSize: 13,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
            }}
          >
            <code>{COMMANDS[key]}</code>
          </Box>
        </Box>
      ))}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('help.placeholders')}
      </Typography>
    </AppDialog>
  )
}
