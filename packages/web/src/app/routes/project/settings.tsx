import type { Project } from '@flagman/contract'
import Stack from '@mui/material/Stack'
import { useNavigate } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { BackupSection } from '../../../features/projects/components/backup-section'
import { DeleteProjectSection } from '../../../features/projects/components/delete-project-section'
import { ProjectSettingsForm } from '../../../features/projects/components/project-settings-form'
import { RetentionSection } from '../../../features/projects/components/retention-section'
import { TestAlertSection } from '../../../features/projects/components/test-alert-section'
import { projectAfterDelete } from '../../../features/projects/utils/choose-project'
import { storeProjectId } from '../../../lib/storage'
import { DashboardHeader } from '../../layouts/dashboard-header'
import { useCurrentProject } from '../../project-context'
import { useSession } from '../../session'

export function SettingsRoute() {
  const { project, can } = useCurrentProject()
  const { projects } = useSession()
  const navigate = useNavigate()
  const canUpdate = can('updateProject')

  const afterDelete = (deleted: Project) => {
    const next = projectAfterDelete(projects, deleted.id)
    storeProjectId(next?.id ?? null)
    void navigate(next ? paths.project.href(next.id) : paths.newProject.href(), { replace: true })
  }

  return (
    <>
      <DashboardHeader tab="settings" />
      <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 800 }}>
        <ProjectSettingsForm project={project} canUpdate={canUpdate} />
        <RetentionSection key={project.id} project={project} canUpdate={canUpdate} />
        <TestAlertSection projectId={project.id} canUpdate={canUpdate} />
        <BackupSection project={project} />
        <DeleteProjectSection project={project} canUpdate={canUpdate} onDeleted={afterDelete} />
      </Stack>
    </>
  )
}
