import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'
import { useCurrentProject } from '../project-context'

/** The project dashboard's header: its title and the History and Settings tabs. */
export function DashboardHeader({ tab }: { tab: 'history' | 'settings' }) {
  const { t } = useTranslation('projects')
  const { project, can } = useCurrentProject()
  const showSettings = can('updateProject') || tab === 'settings'
  return (
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
  )
}
