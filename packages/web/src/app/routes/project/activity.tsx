import Box from '@mui/material/Box'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../../components/page-header'
import { ProjectActivity } from '../../../features/activity/components/project-activity'
import { useCurrentProject } from '../../project-context'

export function ActivityRoute() {
  const { t } = useTranslation('activity')
  const { project } = useCurrentProject()
  return (
    <>
      <PageHeader title={t('page.title')} />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ProjectActivity projectId={project.id} />
      </Box>
    </>
  )
}
