import type { Template } from '@flagman/contract'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { DetailTitle } from '../../../components/detail-title'
import { HeaderButton } from '../../../components/header-button'
import { PageHeader } from '../../../components/page-header'
import { NEW_TEMPLATE_PARAM, paths } from '../../../config/paths'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import {
  useTemplateResources,
  useTemplateWorkspaces,
} from '../../../features/templates/api/resources'
import {
  fetchTemplateRefs,
  useDeleteTemplate,
  useTemplate,
  useTemplateLiveUpdates,
  useTemplates,
} from '../../../features/templates/api/templates'
import { NewTaskButton } from '../../../features/tasks/components/new-task-button'
import { TaskStatsChart } from '../../../features/tasks/components/task-stats-chart'
import { TemplateTasksTab } from '../../../features/tasks/components/template-tasks-tab'
import { runLabelKey } from '../../../features/templates/components/run-button'
import { TemplateDetails } from '../../../features/templates/components/template-details'
import {
  TemplateDialog,
  type TemplateDialogMode,
} from '../../../features/templates/components/template-dialog'
import { TemplateWorkspaces } from '../../../features/templates/components/template-workspaces'
import { useCurrentProject } from '../../project-context'
import { NotFoundRoute } from '../not-found'

const TABS = ['tasks', 'details', 'state'] as const
type TemplateTab = (typeof TABS)[number]

function isTab(value: string | undefined): value is TemplateTab {
  return TABS.some((tab) => tab === value)
}

function usesWorkspaces(template: Template) {
  return template.app === 'terraform' || template.app === 'tofu'
}

export function TemplateRoute() {
  const { t } = useTranslation('templates')
  const { project, can } = useCurrentProject()
  const navigate = useNavigate()
  const location = useLocation()
  const params = useParams()
  const viewId = params.viewId && /^\d+$/.test(params.viewId) ? Number(params.viewId) : null
  const templateId =
    params.templateId && /^[1-9]\d{0,9}$/.test(params.templateId) ? Number(params.templateId) : null
  const canManage = can('manageProjectResources')
  const template = useTemplate(project.id, templateId)
  const resources = useTemplateResources(project.id)
  const templates = useTemplates(project.id)
  const workspaces = useTemplateWorkspaces(
    project.id,
    templateId ?? 0,
    templateId !== null && template.data !== undefined && usesWorkspaces(template.data),
  )
  const remove = useDeleteTemplate(project.id)
  useTemplateLiveUpdates(project.id)
  const deletion = useSafeDelete((item: Template) => fetchTemplateRefs(project.id, item.id))
  const [dialog, setDialog] = useState<TemplateDialogMode | null>(null)
  const listHref = paths.projectTemplates.href(project.id, viewId)

  useEffect(() => {
    if (remove.isSuccess) void navigate(listHref, { replace: true })
  }, [remove.isSuccess, navigate, listHref])

  if (params.templateId === 'new') {
    // `/templates/new` and `/templates/new/edit`: the new template dialog on the list.
    const app = new URLSearchParams(location.search).get('app') ?? ''
    return (
      <Navigate
        to={{
          pathname: paths.projectTemplates.href(project.id),
          search: `?${NEW_TEMPLATE_PARAM}=${encodeURIComponent(app)}`,
        }}
        state={{ allViews: true }}
        replace
      />
    )
  }
  if (templateId === null) return <NotFoundRoute />
  const base = paths.projectTemplate.href(project.id, templateId, viewId)
  const tab = params.tab
  if (!isTab(tab)) return <Navigate to={`${base}/tasks`} replace />
  if (template.isPending) return <LoadingState />
  if (!template.data) {
    return (
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={template.error} />
      </Box>
    )
  }
  const item = template.data
  if (tab === 'state' && !usesWorkspaces(item)) {
    return <Navigate to={`${base}/tasks`} replace />
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
          <>
            {canManage ? (
              <>
                <HeaderButton
                  label={t('details.delete')}
                  icon={<DeleteIcon />}
                  onClick={() => deletion.start(item)}
                />
                <HeaderButton
                  label={t('details.copy')}
                  icon={<ContentCopyIcon />}
                  onClick={() => setDialog({ kind: 'copy', template: item })}
                />
                <HeaderButton
                  label={t('details.edit')}
                  icon={<EditIcon />}
                  onClick={() => setDialog({ kind: 'edit', template: item })}
                />
              </>
            ) : null}
            <NewTaskButton
              projectId={project.id}
              templateId={item.id}
              label={t(runLabelKey(item.type))}
              variant="button"
            />
          </>
        }
      >
        <Tabs value={tab} sx={{ px: { xs: 0, sm: 1 } }} variant="scrollable">
          <Tab
            value="tasks"
            label={t('details.tabs.tasks')}
            component={RouterLink}
            to={`${base}/tasks`}
          />
          <Tab
            value="details"
            label={t('details.tabs.details')}
            component={RouterLink}
            to={`${base}/details`}
          />
          {usesWorkspaces(item) ? (
            <Tab
              value="state"
              label={t('details.tabs.state')}
              component={RouterLink}
              to={`${base}/state`}
            />
          ) : null}
        </Tabs>
      </PageHeader>
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        {tab === 'tasks' ? <TemplateTasksTab projectId={project.id} templateId={item.id} /> : null}
        {tab === 'details' ? (
          <Stack spacing={3}>
            <TemplateDetails
              template={item}
              inventories={resources.inventories}
              environments={resources.environments}
              repositories={resources.repositories}
              keys={resources.keys}
              views={resources.views}
              templates={templates.data ?? []}
              workspaces={workspaces.data ?? []}
            />
            <TaskStatsChart projectId={project.id} templateId={item.id} />
          </Stack>
        ) : null}
        {tab === 'state' ? (
          <TemplateWorkspaces projectId={project.id} template={item} canManage={canManage} />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <TemplateDialog
            open={dialog !== null}
            projectId={project.id}
            mode={dialog}
            onClose={() => setDialog(null)}
            onCreated={(created) =>
              void navigate(paths.projectTemplate.href(project.id, created.id, viewId))
            }
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
