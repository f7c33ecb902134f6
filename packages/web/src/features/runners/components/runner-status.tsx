import type { Runner } from '@flagman/contract'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatRelativeTime } from '../utils/relative-time'

/** Online or offline, with when the runner was last heard from (or that it never was). */
export function RunnerStatus({ runner }: { runner: Runner }) {
  const { t, i18n } = useTranslation('runners')
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
      <Chip
        size="small"
        variant={runner.online ? 'filled' : 'outlined'}
        color={runner.online ? 'success' : 'default'}
        label={runner.online ? t('table.online') : t('table.offline')}
      />
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {runner.touched ? (
          <time dateTime={runner.touched} title={formatDateTime(runner.touched, i18n.language)}>
            {t('table.lastSeen', { time: formatRelativeTime(runner.touched, i18n.language) })}
          </time>
        ) : (
          t('table.neverConnected')
        )}
      </Typography>
    </Box>
  )
}
