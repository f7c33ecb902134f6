import WebhookIcon from '@mui/icons-material/Webhook'
import type { Integration } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { AddButton } from '../../../components/add-button'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import {
  fetchIntegrationRefs,
  useDeleteIntegration,
  useIntegrations,
} from '../../../features/integrations/api/integrations'
import { AliasesSection } from '../../../features/integrations/components/aliases-section'
import { IntegrationDialog } from '../../../features/integrations/components/integration-dialog'
import { IntegrationsTable } from '../../../features/integrations/components/integrations-table'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useTemplates } from '../../../features/templates/api/templates'
import { useCurrentProject } from '../../project-context'

export function IntegrationsRoute() {
  const { t } = useTranslation('integrations')
  const { project, can } = useCurrentProject()
  const navigate = useNavigate()
  // Writes need the resources bit, as the server checks it.
  const canManage = can('manageProjectResources')
  const integrations = useIntegrations(project.id)
  const templates = useTemplates(project.id)
  const remove = useDeleteIntegration(project.id)
  const [editing, setEditing] = useState<{ integration: Integration | null } | null>(null)
  const deletion = useSafeDelete((item: Integration) => fetchIntegrationRefs(project.id, item.id))

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <AddButton label={t('page.new')} onClick={() => setEditing({ integration: null })} />
          ) : null
        }
      />
      <Stack spacing={3} sx={{ p: { xs: 1, sm: 3 } }}>
        <Box>
          <ErrorAlert error={integrations.error} />
          {integrations.data ? (
            integrations.data.length === 0 ? (
              <EmptyState
                icon={<WebhookIcon />}
                title={t('empty.title')}
                text={t('empty.text')}
                action={
                  canManage ? (
                    <Button variant="contained" onClick={() => setEditing({ integration: null })}>
                      {t('page.new')}
                    </Button>
                  ) : null
                }
              />
            ) : (
              <IntegrationsTable
                projectId={project.id}
                integrations={integrations.data}
                templates={templates.data ?? []}
                canManage={canManage}
                busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
                onEdit={(integration) => setEditing({ integration })}
                onDelete={deletion.start}
              />
            )
          ) : integrations.isPending ? (
            <LoadingState />
          ) : null}
        </Box>
        <AliasesSection
          projectId={project.id}
          integrationId={null}
          title={t('aliases.projectTitle')}
          text={t('aliases.projectText')}
          canManage={canManage}
        />
      </Stack>
      {canManage ? (
        <>
          <IntegrationDialog
            open={editing !== null}
            projectId={project.id}
            integration={editing?.integration ?? null}
            onClose={() => setEditing(null)}
            onCreated={(created) =>
              void navigate(paths.projectIntegration.href(project.id, created.id))
            }
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(item) => t('delete.text', { name: item.name })}
            deletedMessage={(item) => t('messages.deleted', { name: item.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
