import { INTEGRATION_AUTH_METHODS, type Integration } from '@flagman/contract'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import Typography from '@mui/material/Typography'
import { type ReactNode, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { DetailTitle } from '../../../components/detail-title'
import { HeaderButton } from '../../../components/header-button'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import {
  fetchIntegrationRefs,
  useDeleteIntegration,
  useIntegration,
  useUpdateIntegration,
} from '../../../features/integrations/api/integrations'
import { AliasesSection } from '../../../features/integrations/components/aliases-section'
import { DeliveriesSection } from '../../../features/integrations/components/deliveries-section'
import { IntegrationDialog } from '../../../features/integrations/components/integration-dialog'
import { MatchersSection } from '../../../features/integrations/components/matchers-section'
import { ValuesSection } from '../../../features/integrations/components/values-section'
import { authMethodLabel } from '../../../features/integrations/utils/labels'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useTemplates } from '../../../features/templates/api/templates'
import { useCurrentProject } from '../../project-context'
import { NotFoundRoute } from '../not-found'

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 160 }}>
      <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  )
}

export function IntegrationRoute() {
  const { t } = useTranslation('integrations')
  const { project, can } = useCurrentProject()
  const navigate = useNavigate()
  const params = useParams()
  const { showMessage } = useSnackbar()
  const integrationId =
    params.integrationId && /^[1-9]\d{0,9}$/.test(params.integrationId)
      ? Number(params.integrationId)
      : null
  const canManage = can('manageProjectResources')
  const integration = useIntegration(project.id, integrationId)
  const templates = useTemplates(project.id)
  const update = useUpdateIntegration(project.id)
  const remove = useDeleteIntegration(project.id)
  const deletion = useSafeDelete((item: Integration) => fetchIntegrationRefs(project.id, item.id))
  const [editing, setEditing] = useState(false)
  const switchHintId = useId()
  const listHref = paths.projectIntegrations.href(project.id)

  useEffect(() => {
    if (remove.isSuccess) void navigate(listHref, { replace: true })
  }, [remove.isSuccess, navigate, listHref])

  if (integrationId === null) return <NotFoundRoute />
  if (integration.isPending) return <LoadingState />
  if (!integration.data) {
    return (
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={integration.error} />
      </Box>
    )
  }
  const item = integration.data
  const template = templates.data?.find((candidate) => candidate.id === item.template_id)

  const setSearchable = (searchable: boolean) => {
    update.mutate(
      {
        id: item.id,
        name: item.name,
        project_id: project.id,
        template_id: item.template_id,
        auth_method: INTEGRATION_AUTH_METHODS.find((method) => method === item.auth_method) ?? '',
        auth_header: item.auth_header,
        auth_secret_id: item.auth_secret_id,
        searchable,
        debounce: item.debounce,
        task_params: item.task_params,
      },
      {
        onSuccess: () =>
          showMessage(searchable ? t('messages.searchableOn') : t('messages.searchableOff')),
        onError: (error) => showMessage(getErrorText(error), 'error'),
      },
    )
  }

  return (
    <>
      <PageHeader
        title={
          <DetailTitle
            label={t('details.breadcrumbs')}
            listHref={listHref}
            listTitle={t('page.title')}
            name={item.name}
          />
        }
        actions={
          canManage ? (
            <>
              <HeaderButton
                label={t('details.delete')}
                icon={<DeleteIcon />}
                onClick={() => deletion.start(item)}
              />
              <HeaderButton
                label={t('details.edit')}
                icon={<EditIcon />}
                onClick={() => setEditing(true)}
              />
            </>
          ) : null
        }
      />
      <Stack spacing={3} sx={{ p: { xs: 1, sm: 3 } }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box
            component="dl"
            sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 4, rowGap: 2, m: 0 }}
          >
            <Field label={t('details.template')}>
              {template ? (
                <Link
                  component={RouterLink}
                  to={paths.projectTemplate.href(project.id, template.id)}
                >
                  {template.name}
                </Link>
              ) : (
                '—'
              )}
            </Field>
            <Field label={t('details.authMethod')}>{authMethodLabel(t, item.auth_method)}</Field>
            {item.auth_method === 'token' || item.auth_method === 'hmac' ? (
              <Field label={t('details.authHeader')}>
                <code>{item.auth_header}</code>
              </Field>
            ) : null}
            <Field label={t('details.debounce')}>
              {item.debounce ? t('details.on') : t('details.off')}
            </Field>
          </Box>
          <Box sx={{ mt: 2 }}>
            <FormControlLabel
              control={
                <Switch
                  checked={item.searchable}
                  disabled={!canManage || update.isPending}
                  onChange={(event) => setSearchable(event.target.checked)}
                  slotProps={{ input: { 'aria-describedby': switchHintId } }}
                />
              }
              label={t('details.globalAlias')}
            />
            <FormHelperText id={switchHintId} sx={{ mt: 0 }}>
              {t('details.globalAliasHint')}
            </FormHelperText>
          </Box>
        </Paper>
        <AliasesSection
          projectId={project.id}
          integrationId={item.id}
          title={t('aliases.title')}
          text={item.searchable ? t('aliases.searchableNote') : t('aliases.text')}
          canManage={canManage}
        />
        <MatchersSection
          projectId={project.id}
          integrationId={item.id}
          text={t('matchers.text')}
          canManage={canManage}
        />
        <ValuesSection
          projectId={project.id}
          integrationId={item.id}
          text={t('values.text')}
          canManage={canManage}
        />
        <DeliveriesSection projectId={project.id} integrationId={item.id} />
      </Stack>
      {canManage ? (
        <>
          <IntegrationDialog
            open={editing}
            projectId={project.id}
            integration={item}
            onClose={() => setEditing(false)}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(value) => t('delete.text', { name: value.name })}
            deletedMessage={(value) => t('messages.deleted', { name: value.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
