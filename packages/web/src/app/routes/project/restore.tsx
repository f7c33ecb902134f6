import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import { RestoreProjectPanel } from '../../../features/projects/components/restore-project-panel'
import { storeProjectId } from '../../../lib/storage'
import { useSession } from '../../session'

/** `/project/restore`: a new project from a backup file; it is selected afterwards. */
export function RestoreProjectRoute() {
  const { t } = useTranslation('projects')
  const { user } = useSession()
  const navigate = useNavigate()

  const openProject = (projectId: number) => {
    storeProjectId(projectId)
    void navigate(paths.project.href(projectId), { replace: true })
  }

  return (
    <>
      <PageHeader title={t('restore.title')} />
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        {user.can_create_project ? (
          <RestoreProjectPanel onRestored={openProject} />
        ) : (
          <Alert severity="info" sx={{ maxWidth: 560 }}>
            {t('new.notAllowed')}
          </Alert>
        )}
      </Box>
    </>
  )
}
