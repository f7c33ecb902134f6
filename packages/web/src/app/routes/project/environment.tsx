import DataObjectIcon from '@mui/icons-material/DataObject'
import type { Environment } from '@flagman/contract'
import Box from '@mui/material/Box'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useDeleteEnvironment } from '../../../features/environments/api/delete-environment'
import { fetchEnvironmentRefs } from '../../../features/environments/api/get-environment-refs'
import { useEnvironments } from '../../../features/environments/api/get-environments'
import { EnvironmentDialog } from '../../../features/environments/components/environment-dialog'
import { EnvironmentsTable } from '../../../features/environments/components/environments-table'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useCurrentProject } from '../../project-context'

export function EnvironmentRoute() {
  const { t } = useTranslation('environments')
  const { project, can } = useCurrentProject()
  const canManage = can('manageProjectResources')
  const environments = useEnvironments(project.id)
  const remove = useDeleteEnvironment(project.id)
  const [editing, setEditing] = useState<{ environment: Environment | null } | null>(null)
  const deletion = useSafeDelete((environment: Environment) =>
    fetchEnvironmentRefs(project.id, environment.id),
  )

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <AddButton label={t('page.new')} onClick={() => setEditing({ environment: null })} />
          ) : null
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={environments.error} />
        {environments.data ? (
          environments.data.length === 0 ? (
            <EmptyState icon={<DataObjectIcon />} title={t('empty.title')} text={t('empty.text')} />
          ) : (
            <EnvironmentsTable
              environments={environments.data}
              canManage={canManage}
              busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
              onEdit={(environment) => setEditing({ environment })}
              onDelete={deletion.start}
            />
          )
        ) : environments.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <EnvironmentDialog
            open={editing !== null}
            projectId={project.id}
            environment={editing?.environment ?? null}
            onClose={() => setEditing(null)}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(environment) => t('delete.text', { name: environment.name })}
            deletedMessage={(environment) => t('messages.deleted', { name: environment.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
