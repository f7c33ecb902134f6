import type { App } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import AppsIcon from '@mui/icons-material/Apps'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'

export interface NewTemplateMenuProps {
  apps: readonly App[]
  isAdmin: boolean
  appsHref: string
  onSelect: (appId: string) => void
  onNavigate: (href: string) => void
}

/** The active apps, highest priority first; admins also get a link to manage them. */
export function NewTemplateMenu({
  apps,
  isAdmin,
  appsHref,
  onSelect,
  onNavigate,
}: NewTemplateMenuProps) {
  const { t } = useTranslation('templates')
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  // Admins may create templates of any app, even when none is active.
  const listed =
    apps.some((app) => app.active) || !isAdmin ? apps.filter((app) => app.active) : apps
  const active = [...listed].sort(
    (a, b) => b.priority - a.priority || a.title.localeCompare(b.title),
  )
  const close = () => setAnchor(null)
  const label = t('page.new')
  return (
    <>
      <Button
        variant="contained"
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ minWidth: { xs: 40, sm: 64 }, px: { xs: 1, sm: 2 } }}
      >
        <AddIcon fontSize="small" />
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' }, ml: 1 }}>
          {label}
        </Box>
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {active.map((app) => (
          <MenuItem
            key={app.id}
            onClick={() => {
              close()
              onSelect(app.id)
            }}
          >
            <ListItemIcon>
              <Box
                aria-hidden
                sx={{
                  width: 12,
                  height: 12,
                  borderRadius: '50%',
                  bgcolor: app.color || 'primary.main',
                  mx: 0.5,
                }}
              />
            </ListItemIcon>
            <ListItemText>{app.title || app.id}</ListItemText>
          </MenuItem>
        ))}
        {active.length === 0 && !isAdmin ? (
          <Typography variant="body2" sx={{ px: 2, py: 1, maxWidth: 320 }}>
            {t('page.noActiveApps')}
          </Typography>
        ) : null}
        {isAdmin && active.length > 0 ? <Divider /> : null}
        {isAdmin ? (
          <MenuItem
            onClick={() => {
              close()
              onNavigate(appsHref)
            }}
          >
            <ListItemIcon>
              <AppsIcon />
            </ListItemIcon>
            <ListItemText>{t('page.applications')}</ListItemText>
          </MenuItem>
        ) : null}
      </Menu>
    </>
  )
}
