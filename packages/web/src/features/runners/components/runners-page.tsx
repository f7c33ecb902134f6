import DnsIcon from '@mui/icons-material/Dns'
import type { CreatedRunner, Runner } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { useDeleteRunner, useRunners, useSetRunnerActive } from '../api/runners'
import type { RunnerScope } from '../api/runners.query-keys'
import { RunnerDialog } from './runner-dialog'
import { RunnerSecretDialog } from './runner-secret-dialog'
import { RunnersTable } from './runners-table'

export interface RunnersPageProps {
  scope: RunnerScope
  title: string
  /** Shown before the title, e.g. a back button on pages without the drawer. */
  start?: ReactNode
  /** More header actions, e.g. a link to the global runners. */
  extraActions?: ReactNode
  /** Whether the viewer may create, switch, edit and delete runners. */
  canManage: boolean
  emptyText: string
  /** The address started runners reach the server at. */
  serverUrl: string
}

/** The runners list with its dialogs; the global and the project page differ only in scope. */
export function RunnersPage({
  scope,
  title,
  start,
  extraActions,
  canManage,
  emptyText,
  serverUrl,
}: RunnersPageProps) {
  const { t } = useTranslation('runners')
  const { showMessage } = useSnackbar()
  const runners = useRunners(scope)
  const setActive = useSetRunnerActive(scope)
  const remove = useDeleteRunner(scope)
  const [editing, setEditing] = useState<{ runner: Runner | null } | null>(null)
  const [deleting, setDeleting] = useState<Runner | null>(null)
  const [created, setCreated] = useState<CreatedRunner | null>(null)
  const openNew = () => setEditing({ runner: null })

  return (
    <>
      <PageHeader
        title={title}
        start={start}
        actions={
          extraActions || canManage ? (
            <>
              {extraActions}
              {canManage ? <AddButton label={t('page.new')} onClick={openNew} /> : null}
            </>
          ) : null
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={runners.error} />
        {runners.data ? (
          runners.data.length === 0 ? (
            <EmptyState
              icon={<DnsIcon />}
              title={t('empty.title')}
              text={emptyText}
              action={
                canManage ? (
                  <Button variant="contained" onClick={openNew}>
                    {t('page.new')}
                  </Button>
                ) : undefined
              }
            />
          ) : (
            <RunnersTable
              runners={runners.data}
              canManage={canManage}
              pendingId={setActive.isPending ? (setActive.variables?.runner.id ?? null) : null}
              onToggle={(runner, active) =>
                setActive.mutate(
                  { runner, active },
                  {
                    onError: (error) =>
                      showMessage(
                        t('messages.toggleFailed', {
                          name: runner.name,
                          error: getErrorText(error),
                        }),
                        'error',
                      ),
                  },
                )
              }
              onEdit={(runner) => setEditing({ runner })}
              onDelete={setDeleting}
            />
          )
        ) : runners.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <RunnerDialog
            open={editing !== null}
            scope={scope}
            runner={editing?.runner ?? null}
            onClose={() => setEditing(null)}
            onCreated={setCreated}
          />
          <RunnerSecretDialog
            runner={created}
            serverUrl={serverUrl}
            onClose={() => setCreated(null)}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={t('delete.title')}
            text={t('delete.text', { name: deleting?.name ?? '' })}
            pending={remove.isPending}
            // A runner with running tasks is refused; the server's answer lists them.
            error={remove.error}
            onClose={() => {
              remove.reset()
              setDeleting(null)
            }}
            onConfirm={() => {
              if (!deleting) return
              remove.mutate(deleting, {
                onSuccess: () => {
                  showMessage(t('messages.deleted', { name: deleting.name }))
                  setDeleting(null)
                },
              })
            }}
          />
        </>
      ) : null}
    </>
  )
}
