import SourceIcon from '@mui/icons-material/Source'
import type { Repository } from '@flagman/contract'
import Box from '@mui/material/Box'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useKeys } from '../../../features/keys/api/get-keys'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useDeleteRepository } from '../../../features/repositories/api/delete-repository'
import { useRepositories } from '../../../features/repositories/api/get-repositories'
import { fetchRepositoryRefs } from '../../../features/repositories/api/get-repository-refs'
import { RepositoriesTable } from '../../../features/repositories/components/repositories-table'
import { RepositoryDialog } from '../../../features/repositories/components/repository-dialog'
import { useCurrentProject } from '../../project-context'

export function RepositoriesRoute() {
  const { t } = useTranslation('repositories')
  const { project, can } = useCurrentProject()
  const canManage = can('manageProjectResources')
  const repositories = useRepositories(project.id)
  const keys = useKeys(project.id)
  const remove = useDeleteRepository(project.id)
  const [editing, setEditing] = useState<{ repository: Repository | null } | null>(null)
  const deletion = useSafeDelete((repository: Repository) =>
    fetchRepositoryRefs(project.id, repository.id),
  )
  const keyNames = useMemo(
    () => new Map((keys.data ?? []).map((key) => [key.id, key.name])),
    [keys.data],
  )

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <AddButton label={t('page.new')} onClick={() => setEditing({ repository: null })} />
          ) : null
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={repositories.error ?? keys.error} />
        {repositories.data && !keys.isPending ? (
          repositories.data.length === 0 ? (
            <EmptyState icon={<SourceIcon />} title={t('empty.title')} text={t('empty.text')} />
          ) : (
            <RepositoriesTable
              repositories={repositories.data}
              keyNames={keyNames}
              canManage={canManage}
              busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
              onEdit={(repository) => setEditing({ repository })}
              onDelete={deletion.start}
            />
          )
        ) : repositories.isPending || keys.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <RepositoryDialog
            open={editing !== null}
            projectId={project.id}
            repository={editing?.repository ?? null}
            keys={keys.data ?? []}
            keysPending={keys.isPending}
            onClose={() => setEditing(null)}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(repository) => t('delete.text', { name: repository.name })}
            deletedMessage={(repository) => t('messages.deleted', { name: repository.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
