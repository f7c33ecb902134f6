import AddIcon from '@mui/icons-material/Add'
import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import type { App } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { AdminOnly } from '../../components/admin-only'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { ErrorAlert } from '../../components/error-alert'
import { LoadingState } from '../../components/loading-state'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'
import { useApps, useDeleteApp, useSetAppActive } from '../../features/apps/api/apps'
import { AppEditDialog } from '../../features/apps/components/app-edit-dialog'
import { AppsTable } from '../../features/apps/components/apps-table'
import { useSnackbar } from '../../hooks/use-snackbar'
import { getErrorText } from '../../lib/error-text'
import { useSession } from '../session'

export function AppsRoute() {
  const { user } = useSession()
  if (!user.admin) return <AdminOnly />
  return <AppsPage />
}

function AppsPage() {
  const { t } = useTranslation('apps')
  const { t: tc } = useTranslation()
  const { showMessage } = useSnackbar()
  const apps = useApps()
  const setActive = useSetAppActive()
  const remove = useDeleteApp()
  const [editing, setEditing] = useState<{ app: App | null } | null>(null)
  const [deleting, setDeleting] = useState<App | null>(null)

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
            onClick={() => setEditing({ app: null })}
          >
            {t('page.new')}
          </Button>
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={apps.error ?? setActive.error} />
        {apps.data ? (
          <AppsTable
            apps={apps.data}
            busyId={setActive.isPending ? (setActive.variables?.id ?? null) : null}
            onToggleActive={(app, active) =>
              setActive.mutate(
                { id: app.id, active },
                {
                  onSuccess: () =>
                    showMessage(
                      t(active ? 'messages.activated' : 'messages.deactivated', {
                        name: app.title || app.id,
                      }),
                    ),
                },
              )
            }
            onEdit={(app) => setEditing({ app })}
            onDelete={setDeleting}
          />
        ) : apps.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      <AppEditDialog
        open={editing !== null}
        app={editing?.app ?? null}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('delete.title')}
        text={deleting ? t('delete.text', { name: deleting.title || deleting.id }) : ''}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(deleting, {
            onSuccess: (app) => {
              showMessage(t('messages.deleted', { name: app.title || app.id }))
              setDeleting(null)
            },
            onError: (error) => {
              showMessage(getErrorText(error), 'error')
              setDeleting(null)
            },
          })
        }}
      />
    </Box>
  )
}
