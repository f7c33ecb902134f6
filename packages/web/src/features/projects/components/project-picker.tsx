import AddIcon from '@mui/icons-material/Add'
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown'
import RestoreIcon from '@mui/icons-material/Restore'
import type { Project } from '@flagman/contract'
import Box from '@mui/material/Box'
import ButtonBase from '@mui/material/ButtonBase'
import Divider from '@mui/material/Divider'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ProjectBadge } from './project-badge'

export interface ProjectPickerProps {
  projects: readonly Project[]
  currentProjectId: number | null
  /** The user's role in the current project (`''` for an admin who is not a member). */
  role: string | null
  isAdmin: boolean
  canCreateProject: boolean
  onSelect: (project: Project) => void
  onNewProject: () => void
  onRestoreProject: () => void
}

const KNOWN_ROLES = ['owner', 'manager', 'task_runner', 'guest'] as const

export function ProjectPicker({
  projects,
  currentProjectId,
  role,
  isAdmin,
  canCreateProject,
  onSelect,
  onNewProject,
  onRestoreProject,
}: ProjectPickerProps) {
  const { t } = useTranslation('projects')
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  const currentIndex = projects.findIndex((project) => project.id === currentProjectId)
  const current = currentIndex >= 0 ? projects[currentIndex] : undefined

  const knownRole = KNOWN_ROLES.find((name) => name === role)
  let roleLabel = ''
  if (knownRole) roleLabel = t(`roles.${knownRole}`)
  else if (role === '' && isAdmin) roleLabel = t('roles.admin')

  const close = () => setAnchor(null)

  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        aria-label={current ? t('picker.current', { name: current.name }) : t('picker.choose')}
        sx={{
          width: '100%',
          justifyContent: 'flex-start',
          textAlign: 'left',
          gap: 1.5,
          px: 2,
          py: 1.5,
          borderRadius: 1,
          '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        {current ? (
          <ProjectBadge
            name={current.name}
            index={currentIndex}
            premium={current.type === 'premium'}
            size={40}
          />
        ) : null}
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography noWrap sx={{ fontWeight: 600 }}>
            {current ? current.name : t('picker.choose')}
          </Typography>
          {current && roleLabel ? (
            <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
              {roleLabel}
            </Typography>
          ) : null}
        </Box>
        <ArrowDropDownIcon />
      </ButtonBase>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        slotProps={{ paper: { sx: { width: 244, maxHeight: '70vh' } } }}
      >
        {projects.map((project, index) => (
          <MenuItem
            key={project.id}
            selected={project.id === currentProjectId}
            onClick={() => {
              close()
              onSelect(project)
            }}
          >
            <ListItemIcon sx={{ mr: 1.5 }}>
              <ProjectBadge
                name={project.name}
                index={index}
                premium={project.type === 'premium'}
                size={28}
              />
            </ListItemIcon>
            <ListItemText slotProps={{ primary: { noWrap: true } }}>{project.name}</ListItemText>
          </MenuItem>
        ))}
        {projects.length > 0 && canCreateProject ? <Divider /> : null}
        {canCreateProject ? (
          <MenuItem
            onClick={() => {
              close()
              onNewProject()
            }}
          >
            <ListItemIcon>
              <AddIcon />
            </ListItemIcon>
            <ListItemText>{t('picker.newProject')}</ListItemText>
          </MenuItem>
        ) : null}
        {canCreateProject ? (
          <MenuItem
            onClick={() => {
              close()
              onRestoreProject()
            }}
          >
            <ListItemIcon>
              <RestoreIcon />
            </ListItemIcon>
            <ListItemText>{t('restore.menu')}</ListItemText>
          </MenuItem>
        ) : null}
      </Menu>
    </>
  )
}
