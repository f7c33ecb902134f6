import type { Project } from '@flagman/contract'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import { NewProjectPanel } from '../../../features/projects/components/new-project-panel'
import { storeProjectId } from '../../../lib/storage'
import { useSession } from '../../session'

export function NewProjectRoute({ premium = false }: { premium?: boolean }) {
  const { t } = useTranslation('projects')
  const { user } = useSession()
  const navigate = useNavigate()

  const openProject = (project: Project) => {
    storeProjectId(project.id)
    void navigate(paths.project.href(project.id), { replace: true })
  }

  return (
    <>
      <PageHeader title={premium ? t('new.premiumTitle') : t('new.title')} />
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        {user.can_create_project ? (
          <NewProjectPanel premium={premium} onCreated={openProject} />
        ) : (
          <Alert severity="info" sx={{ maxWidth: 560 }}>
            {t('new.notAllowed')}
          </Alert>
        )}
      </Box>
    </>
  )
}
