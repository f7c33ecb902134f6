import MenuIcon from '@mui/icons-material/Menu'
import AppBar from '@mui/material/AppBar'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Toolbar from '@mui/material/Toolbar'
import Typography from '@mui/material/Typography'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDrawer } from '../hooks/use-drawer'

export interface PageHeaderProps {
  title: ReactNode
  /** Shown before the title, e.g. a back button on pages without the drawer. */
  start?: ReactNode
  actions?: ReactNode
  /** Shown under the toolbar, e.g. tabs. */
  children?: ReactNode
}

export function PageHeader({ title, start, actions, children }: PageHeaderProps) {
  const { t } = useTranslation()
  const drawer = useDrawer()
  return (
    <AppBar
      position="sticky"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      <Toolbar sx={{ gap: 1 }}>
        {drawer?.temporary ? (
          <IconButton edge="start" onClick={drawer.open} aria-label={t('actions.openMenu')}>
            <MenuIcon />
          </IconButton>
        ) : null}
        {start}
        <Typography variant="h6" component="h1" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
          {title}
        </Typography>
        {actions ? <Box sx={{ display: 'flex', gap: 1, flexShrink: 0 }}>{actions}</Box> : null}
      </Toolbar>
      {children}
    </AppBar>
  )
}
