import AddIcon from '@mui/icons-material/Add'
import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import type { User } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { AdminOnly } from '../../components/admin-only'
import { ErrorAlert } from '../../components/error-alert'
import { LoadingState } from '../../components/loading-state'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'
import { useUsers } from '../../features/users/api/get-users'
import { DeleteUserDialog } from '../../features/users/components/delete-user-dialog'
import { RemoveTwoFactorDialog } from '../../features/users/components/remove-two-factor-dialog'
import { UserDialog } from '../../features/users/components/user-dialog'
import { UsersTable } from '../../features/users/components/users-table'
import { useSession } from '../session'

type Editing = { user: User | null } | null

export function UsersRoute() {
  const { user: viewer } = useSession()
  if (!viewer.admin) return <AdminOnly />
  return <UsersPage viewerId={viewer.id} />
}

function UsersPage({ viewerId }: { viewerId: number }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const users = useUsers()
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<User | null>(null)
  const [removingTwoFactor, setRemovingTwoFactor] = useState<User | null>(null)

  return (
    <Box component="main">
      <PageHeader
        title={t('page.title')}
        start={
          <IconButton
            component={Link}
            to={paths.root.href()}
            edge="start"
            aria-label={tc('actions.back')}
          >
            <ArrowBackIcon />
          </IconButton>
        }
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEditing({ user: null })}
          >
            {t('page.newUser')}
          </Button>
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={users.error} />
        {users.data ? (
          <UsersTable
            users={users.data}
            onEdit={(user) => setEditing({ user })}
            onDelete={setDeleting}
            onRemoveTwoFactor={setRemovingTwoFactor}
          />
        ) : users.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      <UserDialog
        open={editing !== null}
        user={editing?.user ?? null}
        viewerIsAdmin
        viewerId={viewerId}
        onClose={() => setEditing(null)}
      />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
      <RemoveTwoFactorDialog user={removingTwoFactor} onClose={() => setRemovingTwoFactor(null)} />
    </Box>
  )
}
