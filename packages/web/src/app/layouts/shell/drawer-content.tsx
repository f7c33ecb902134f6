import type { Project } from '@flagman/contract'
import AssignmentIcon from '@mui/icons-material/Assignment'
import EventIcon from '@mui/icons-material/Event'
import DashboardIcon from '@mui/icons-material/Dashboard'
import DataObjectIcon from '@mui/icons-material/DataObject'
import DnsIcon from '@mui/icons-material/Dns'
import DownloadIcon from '@mui/icons-material/Download'
import NewspaperIcon from '@mui/icons-material/Newspaper'
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone'
import MemoryIcon from '@mui/icons-material/Memory'
import PeopleIcon from '@mui/icons-material/People'
import SourceIcon from '@mui/icons-material/Source'
import WebhookIcon from '@mui/icons-material/Webhook'
import VpnKeyIcon from '@mui/icons-material/VpnKey'
import Box from '@mui/material/Box'
import Divider from '@mui/material/Divider'
import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom'
import { NEW_PROJECT_PARAM, paths } from '../../../config/paths'
import { useProjectRole } from '../../../features/projects/api/get-project-role'
import { ProjectPicker } from '../../../features/projects/components/project-picker'
import { readLastView } from '../../../features/templates/utils/storage'
import { storeProjectId } from '../../../lib/storage'
import { useSession } from '../../session'
import { DarkModeSwitch } from './dark-mode-switch'
import { LanguageMenu } from './language-menu'
import { UserMenu } from './user-menu'

interface NavEntry {
  to: string
  label: string
  icon: ReactNode
  /** Also active on these path prefixes (pages reached by tabs of this entry). */
  alsoActive?: string[]
}

function NavItem({ entry, onNavigate }: { entry: NavEntry; onNavigate: () => void }) {
  const location = useLocation()
  const active =
    location.pathname.startsWith(entry.to) ||
    (entry.alsoActive ?? []).some((prefix) => location.pathname.startsWith(prefix))
  return (
    <ListItemButton
      component={NavLink}
      to={entry.to}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    >
      <ListItemIcon>{entry.icon}</ListItemIcon>
      <ListItemText primary={entry.label} />
    </ListItemButton>
  )
}

export interface DrawerContentProps {
  projectId: number | null
  onNavigate: () => void
}

export function DrawerContent({ projectId, onNavigate }: DrawerContentProps) {
  const { t } = useTranslation([
    'shell',
    'inventories',
    'environments',
    'keys',
    'repositories',
    'activity',
    'templates',
    'schedules',
    'integrations',
    'runners',
    'install',
    'news',
  ])
  const { user, projects } = useSession()
  const navigate = useNavigate()
  const [, setSearchParams] = useSearchParams()
  const project = projects.find((item) => item.id === projectId) ?? null
  const role = useProjectRole(project ? project.id : null)

  const selectProject = (next: Project) => {
    storeProjectId(next.id)
    onNavigate()
    void navigate(paths.project.href(next.id))
  }
  const newProject = () => {
    onNavigate()
    setSearchParams((params) => {
      params.set(NEW_PROJECT_PARAM, '')
      return params
    })
  }

  const entries: NavEntry[] = []
  if (project && project.type !== 'premium') {
    entries.push({
      to: paths.projectHistory.href(project.id),
      label: t('menu.dashboard'),
      icon: <DashboardIcon />,
      alsoActive: [paths.projectSettings.href(project.id)],
    })
    entries.push(
      {
        to: paths.projectTemplates.href(project.id, readLastView(project.id)),
        label: t('templates:menu'),
        icon: <AssignmentIcon />,
        alsoActive: [
          paths.projectTemplates.href(project.id),
          `${paths.project.href(project.id)}/views/`,
        ],
      },
      {
        to: paths.projectSchedule.href(project.id),
        label: t('schedules:menu'),
        icon: <EventIcon />,
      },
      {
        to: paths.projectInventory.href(project.id),
        label: t('inventories:menu'),
        icon: <DnsIcon />,
      },
      {
        to: paths.projectEnvironment.href(project.id),
        label: t('environments:menu'),
        icon: <DataObjectIcon />,
      },
      {
        to: paths.projectKeys.href(project.id),
        label: t('keys:menu'),
        icon: <VpnKeyIcon />,
      },
      {
        to: paths.projectRepositories.href(project.id),
        label: t('repositories:menu'),
        icon: <SourceIcon />,
      },
      {
        to: paths.projectIntegrations.href(project.id),
        label: t('integrations:menu'),
        icon: <WebhookIcon />,
      },
      {
        to: paths.projectRunners.href(project.id),
        label: t('runners:menu'),
        icon: <MemoryIcon />,
      },
    )
  }
  if (project) {
    entries.push({
      to: paths.projectTeam.href(project.id),
      label: t('menu.team'),
      icon: <PeopleIcon />,
    })
  }
  if (project && project.type !== 'premium') {
    entries.push({
      to: paths.projectActivity.href(project.id),
      label: t('activity:menu'),
      icon: <NotificationsNoneIcon />,
    })
    entries.push({
      to: paths.projectInstall.href(project.id),
      label: t('install:title'),
      icon: <DownloadIcon />,
      alsoActive: [`${paths.projectInstall.href(project.id)}/`],
    })
    entries.push({
      to: paths.projectNews.href(project.id),
      label: t('news:title'),
      icon: <NewspaperIcon />,
    })
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ p: 1 }}>
        <ProjectPicker
          projects={projects}
          currentProjectId={project?.id ?? null}
          role={role.data?.role ?? null}
          isAdmin={user.admin}
          canCreateProject={user.can_create_project}
          onSelect={selectProject}
          onNewProject={newProject}
          onRestoreProject={() => {
            onNavigate()
            void navigate(paths.restoreProject.href())
          }}
        />
      </Box>
      <Divider />
      {entries.length > 0 ? (
        <List component="nav" aria-label={t('drawer.projectNavigation')}>
          {entries.map((entry) => (
            <NavItem key={entry.to} entry={entry} onNavigate={onNavigate} />
          ))}
        </List>
      ) : null}
      <Box sx={{ flexGrow: 1 }} />
      <Divider />
      <List dense aria-label={t('drawer.preferences')}>
        <DarkModeSwitch />
        <LanguageMenu />
        <UserMenu />
      </List>
    </Box>
  )
}
