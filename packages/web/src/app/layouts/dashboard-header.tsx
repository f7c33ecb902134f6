import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'
import { roleBanner } from '../../features/projects/utils/role-banner'
import { useCurrentProject } from '../project-context'

/**
 * The project dashboard's header: its title and the History and Settings tabs, and for members
 * who may only run tasks or only look, a notice saying so.
 */
export function DashboardHeader({ tab }: { tab: 'history' | 'settings' }) {
  const { t } = useTranslation('projects')
  const { project, can, isAdmin, permissions } = useCurrentProject()
  const showSettings = can('updateProject') || tab === 'settings'
  const banner = roleBanner(isAdmin, permissions)
  return (
    <>
      <PageHeader title={project.name}>
        <Tabs
          value={tab}
          aria-label={t('dashboard.tabs')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: { xs: 0, sm: 2 } }}
        >
          <Tab
            value="history"
            label={t('dashboard.history')}
            component={Link}
            to={paths.projectHistory.href(project.id)}
          />
          {showSettings ? (
            <Tab
              value="settings"
              label={t('dashboard.settings')}
              component={Link}
              to={paths.projectSettings.href(project.id)}
            />
          ) : null}
        </Tabs>
      </PageHeader>
      {banner ? (
        <Box sx={{ px: { xs: 2, sm: 3 }, pt: { xs: 2, sm: 3 } }}>
          <Alert severity="info" role="status">
            {t(`roleBanner.${banner}`)}
          </Alert>
        </Box>
      ) : null}
    </>
  )
}
