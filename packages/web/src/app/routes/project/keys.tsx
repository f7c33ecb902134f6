import VpnKeyIcon from '@mui/icons-material/VpnKey'
import type { AccessKey } from '@flagman/contract'
import Box from '@mui/material/Box'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { useDeleteKey } from '../../../features/keys/api/delete-key'
import { fetchKeyRefs } from '../../../features/keys/api/get-key-refs'
import { useKeys } from '../../../features/keys/api/get-keys'
import { KeyDialog } from '../../../features/keys/components/key-dialog'
import { KeysTable } from '../../../features/keys/components/keys-table'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useCurrentProject } from '../../project-context'

export function KeysRoute() {
  const { t } = useTranslation('keys')
  const { project, can } = useCurrentProject()
  const canManage = can('manageProjectResources')
  const keys = useKeys(project.id)
  const remove = useDeleteKey(project.id)
  const [editing, setEditing] = useState<{ key: AccessKey | null } | null>(null)
  const deletion = useSafeDelete((key: AccessKey) => fetchKeyRefs(project.id, key.id))

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <AddButton label={t('page.new')} onClick={() => setEditing({ key: null })} />
          ) : null
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={keys.error} />
        {keys.data ? (
          keys.data.length === 0 ? (
            <EmptyState icon={<VpnKeyIcon />} title={t('empty.title')} text={t('empty.text')} />
          ) : (
            <KeysTable
              keys={keys.data}
              canManage={canManage}
              busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
              onEdit={(key) => setEditing({ key })}
              onDelete={deletion.start}
            />
          )
        ) : keys.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <KeyDialog
            open={editing !== null}
            projectId={project.id}
            keyItem={editing?.key ?? null}
            onClose={() => setEditing(null)}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(key) => t('delete.text', { name: key.name })}
            deletedMessage={(key) => t('messages.deleted', { name: key.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
