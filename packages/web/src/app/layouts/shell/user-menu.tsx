import { displayVersion } from '@flagman/contract'
import AppsIcon from '@mui/icons-material/Apps'
import CardMembershipIcon from '@mui/icons-material/CardMembership'
import GroupIcon from '@mui/icons-material/Group'
import KeyIcon from '@mui/icons-material/Key'
import LogoutIcon from '@mui/icons-material/Logout'
import MemoryIcon from '@mui/icons-material/Memory'
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts'
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay'
import Avatar from '@mui/material/Avatar'
import Chip from '@mui/material/Chip'
import Divider from '@mui/material/Divider'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import ListSubheader from '@mui/material/ListSubheader'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { lazy, Suspense, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { useLogout } from '../../../features/auth/api/logout'
import { useSession } from '../../session'

// The account forms load when the dialog is first opened, not with every signed-in page.
const EditAccountDialog = lazy(async () => ({
  default: (await import('../../../features/users/components/edit-account-dialog'))
    .EditAccountDialog,
}))
const SubscriptionDialog = lazy(async () => ({
  default: (await import('../../../features/subscription/components/subscription-dialog'))
    .SubscriptionDialog,
}))
const ApiTokensDialog = lazy(async () => ({
  default: (await import('../../../features/users/components/api-tokens-dialog')).ApiTokensDialog,
}))

export function UserMenu() {
  const { t } = useTranslation('shell')
  const { t: tApps } = useTranslation('apps')
  const { t: tTasks } = useTranslation('tasks')
  const { t: tRunners } = useTranslation('runners')
  const { t: tSubscription } = useTranslation('subscription')
  const { user, info } = useSession()
  const navigate = useNavigate()
  const logout = useLogout()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [editing, setEditing] = useState(false)
  // Once opened, the dialog stays mounted so that it can close with its transition.
  const [editOpened, setEditOpened] = useState(false)
  if (editing && !editOpened) setEditOpened(true)
  const [tokensOpen, setTokensOpen] = useState(false)
  const [tokensOpened, setTokensOpened] = useState(false)
  if (tokensOpen && !tokensOpened) setTokensOpened(true)
  const [subscriptionOpen, setSubscriptionOpen] = useState(false)
  const [subscriptionOpened, setSubscriptionOpened] = useState(false)
  if (subscriptionOpen && !subscriptionOpened) setSubscriptionOpened(true)
  const menuId = useId()
  const close = () => setAnchor(null)

  const signOut = () => {
    close()
    logout.mutate(undefined, {
      onSettled: () => void navigate(paths.login.href(), { replace: true }),
    })
  }

  return (
    <>
      <ListItem disablePadding>
        <ListItemButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? menuId : undefined}
          aria-label={t('userMenu.open', { name: user.name })}
        >
          <ListItemIcon>
            <Avatar sx={{ width: 28, height: 28, fontSize: 14 }} aria-hidden>
              {Array.from(user.name || user.username)[0]?.toUpperCase()}
            </Avatar>
          </ListItemIcon>
          <ListItemText
            primary={user.name}
            secondary={user.username}
            slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
          />
          {user.admin ? (
            <Chip label={t('userMenu.admin')} size="small" color="primary" sx={{ ml: 1 }} />
          ) : null}
        </ListItemButton>
      </ListItem>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <ListSubheader role="presentation" sx={{ lineHeight: 2.5 }}>
          {t('userMenu.version', { version: displayVersion(info.version) })}
        </ListSubheader>
        {user.admin ? (
          <MenuItem
            onClick={() => {
              close()
              void navigate(paths.users.href())
            }}
          >
            <ListItemIcon>
              <GroupIcon />
            </ListItemIcon>
            <ListItemText>{t('userMenu.users')}</ListItemText>
          </MenuItem>
        ) : null}
        {user.admin && info.use_remote_runner ? (
          <MenuItem
            onClick={() => {
              close()
              void navigate(paths.runners.href())
            }}
          >
            <ListItemIcon>
              <MemoryIcon />
            </ListItemIcon>
            <ListItemText>{tRunners('menu')}</ListItemText>
          </MenuItem>
        ) : null}
        {user.admin ? (
          <MenuItem
            onClick={() => {
              close()
              void navigate(paths.apps.href())
            }}
          >
            <ListItemIcon>
              <AppsIcon />
            </ListItemIcon>
            <ListItemText>{tApps('menu')}</ListItemText>
          </MenuItem>
        ) : null}
        {user.admin ? (
          <MenuItem
            onClick={() => {
              close()
              void navigate(paths.activeTasks.href())
            }}
          >
            <ListItemIcon>
              <PlaylistPlayIcon />
            </ListItemIcon>
            <ListItemText>{tTasks('active.title')}</ListItemText>
          </MenuItem>
        ) : null}
        {user.admin ? (
          <MenuItem
            onClick={() => {
              close()
              setSubscriptionOpen(true)
            }}
          >
            <ListItemIcon>
              <CardMembershipIcon />
            </ListItemIcon>
            <ListItemText>{tSubscription('menu')}</ListItemText>
          </MenuItem>
        ) : null}
        <MenuItem
          onClick={() => {
            close()
            setEditing(true)
          }}
        >
          <ListItemIcon>
            <ManageAccountsIcon />
          </ListItemIcon>
          <ListItemText>{t('userMenu.editAccount')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close()
            setTokensOpen(true)
          }}
        >
          <ListItemIcon>
            <KeyIcon />
          </ListItemIcon>
          <ListItemText>{t('userMenu.apiTokens')}</ListItemText>
        </MenuItem>
        <Divider />
        <MenuItem onClick={signOut}>
          <ListItemIcon>
            <LogoutIcon />
          </ListItemIcon>
          <ListItemText>{t('userMenu.signOut')}</ListItemText>
        </MenuItem>
      </Menu>
      {editOpened && (
        <Suspense fallback={null}>
          <EditAccountDialog open={editing} user={user} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      {subscriptionOpened && (
        <Suspense fallback={null}>
          <SubscriptionDialog open={subscriptionOpen} onClose={() => setSubscriptionOpen(false)} />
        </Suspense>
      )}
      {tokensOpened && (
        <Suspense fallback={null}>
          <ApiTokensDialog open={tokensOpen} onClose={() => setTokensOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
