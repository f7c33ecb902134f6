import Box from '@mui/material/Box'
import { Navigate } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { ProjectHistory } from '../../../features/tasks/components/project-history'
import { DashboardHeader } from '../../layouts/dashboard-header'
import { useCurrentProject } from '../../project-context'

export function HistoryRoute() {
  const { project } = useCurrentProject()
  // Subscription projects have no task history; their team page stands in.
  if (project.type === 'premium')
    return <Navigate to={paths.projectTeam.href(project.id)} replace />
  return (
    <>
      <DashboardHeader tab="history" />
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        <ProjectHistory projectId={project.id} />
      </Box>
    </>
  )
}
