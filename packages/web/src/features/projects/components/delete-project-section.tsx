import type { Project } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useDeleteProject } from '../api/delete-project'

export interface DeleteProjectSectionProps {
  project: Project
  canUpdate: boolean
  onDeleted: (project: Project) => void
}

/** The Danger Zone of the project settings. */
export function DeleteProjectSection({ project, canUpdate, onDeleted }: DeleteProjectSectionProps) {
  const { t } = useTranslation('projects')
  const titleId = useId()
  const [confirming, setConfirming] = useState(false)
  const { showMessage } = useSnackbar()
  const remove = useDeleteProject()

  const close = () => {
    setConfirming(false)
    remove.reset()
  }

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, borderColor: 'error.main' }}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 2, color: 'error.main' }}>
        {t('danger.title')}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          alignItems: 'center',
          justifyContent: 'space-between',
        }}
      >
        <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
          <Typography sx={{ fontWeight: 600 }}>{t('danger.deleteTitle')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('danger.deleteText')}
          </Typography>
        </Box>
        <Button
          color="error"
          variant="outlined"
          disabled={!canUpdate}
          onClick={() => setConfirming(true)}
        >
          {t('danger.deleteButton')}
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t('danger.confirmTitle')}
        text={t('danger.confirmText', { name: project.name })}
        pending={remove.isPending}
        error={remove.error}
        onClose={close}
        onConfirm={() =>
          remove.mutate(project, {
            onSuccess: (deleted) => {
              setConfirming(false)
              showMessage(t('danger.deleted', { name: deleted.name }))
              onDeleted(deleted)
            },
          })
        }
      />
    </Paper>
  )
}
