import type { Project } from '@flagman/contract'
import DownloadIcon from '@mui/icons-material/Download'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { useExportBackup } from '../api/export-backup'

/** Exports the project as a backup file, which "Restore project" turns into a new project. */
export function BackupSection({ project }: { project: Project }) {
  const { t } = useTranslation('projects')
  const titleId = useId()
  const { showMessage } = useSnackbar()
  const exportBackup = useExportBackup(project)

  const run = () =>
    exportBackup.mutate(undefined, {
      onSuccess: () => showMessage(t('backup.exported')),
      onError: (error) => showMessage(getErrorText(error), 'error'),
    })

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('backup.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: '1 1 240px' }}>
          {t('backup.text')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          loading={exportBackup.isPending}
          onClick={run}
        >
          {t('backup.export')}
        </Button>
      </Box>
    </Paper>
  )
}
