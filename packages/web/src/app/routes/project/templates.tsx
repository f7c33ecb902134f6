import AssignmentIcon from '@mui/icons-material/Assignment'
import type { Template } from '@flagman/contract'
import Box from '@mui/material/Box'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { NEW_TEMPLATE_PARAM, paths } from '../../../config/paths'
import { SafeDeleteDialogs } from '../../../features/references/components/safe-delete-dialogs'
import { useSafeDelete } from '../../../features/references/hooks/use-safe-delete'
import { useTemplateResources } from '../../../features/templates/api/resources'
import {
  fetchTemplateRefs,
  useApps,
  useDeleteTemplate,
  useTemplateLiveUpdates,
} from '../../../features/templates/api/templates'
import { useTemplatePage } from '../../../features/templates/api/template-page'
import { TemplatesListControls } from '../../../features/templates/components/templates-list-controls'
import { ColumnSettings } from '../../../features/templates/components/column-settings'
import { NewTemplateMenu } from '../../../features/templates/components/new-template-menu'
import {
  TemplateDialog,
  type TemplateDialogMode,
} from '../../../features/templates/components/template-dialog'
import {
  TEMPLATE_COLUMNS,
  TemplatesTable,
} from '../../../features/templates/components/templates-table'
import {
  readTemplateListParams,
  writeTemplateListParams,
  type TemplateListParams,
} from '../../../features/templates/utils/list-params'
import {
  readHiddenColumns,
  readLastView,
  storeHiddenColumns,
  storeLastView,
} from '../../../features/templates/utils/storage'
import { useViews } from '../../../features/views/api/views'
import { ViewTabs } from '../../../features/views/components/view-tabs'
import { NewTaskButton } from '../../../features/tasks/components/new-task-button'
import { runLabelKey } from '../../../features/templates/components/run-button'
import { useCurrentProject } from '../../project-context'

const TABLE_ID = 'templates'

function parseViewId(raw: string | undefined): number | null | 'invalid' {
  if (raw === undefined) return null
  return /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 'invalid'
}

export function TemplatesRoute() {
  const { t } = useTranslation('templates')
  const { project, can, isAdmin } = useCurrentProject()
  const navigate = useNavigate()
  const location = useLocation()
  const { viewId: rawViewId } = useParams()
  const parsedViewId = parseViewId(rawViewId)
  const viewId = parsedViewId === 'invalid' ? null : parsedViewId
  const canManage = can('manageProjectResources')
  const views = useViews(project.id)
  const resources = useTemplateResources(project.id)
  const apps = useApps()
  const remove = useDeleteTemplate(project.id)
  useTemplateLiveUpdates(project.id)
  const deletion = useSafeDelete((template: Template) => fetchTemplateRefs(project.id, template.id))
  const [dialog, setDialog] = useState<TemplateDialogMode | null>(null)
  const [hidden, setHidden] = useState<string[]>(() => readHiddenColumns(TABLE_ID))
  const [searchParams, setSearchParams] = useSearchParams()
  const requestedApp = searchParams.get(NEW_TEMPLATE_PARAM)
  const listParams = readTemplateListParams(searchParams)
  const templates = useTemplatePage(project.id, viewId, listParams)
  const changeList = useCallback(
    (next: TemplateListParams) =>
      setSearchParams((current) => writeTemplateListParams(current, next), { replace: true }),
    [setSearchParams],
  )

  // `/templates/new` lands here with the parameter: open the new template dialog once.
  useEffect(() => {
    if (requestedApp === null || !apps.data) return
    const active = apps.data.filter((app) => app.active).sort((a, b) => b.priority - a.priority)
    const app = active.find((item) => item.id === requestedApp) ?? active[0]
    if (canManage && app) setDialog({ kind: 'new', app: app.id })
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete(NEW_TEMPLATE_PARAM)
        return next
      },
      { replace: true },
    )
  }, [requestedApp, apps.data, canManage, setSearchParams])

  const unknownView =
    parsedViewId === 'invalid' ||
    (viewId !== null && views.data !== undefined && !views.data.some((v) => v.id === viewId))

  // The plain list reached from elsewhere shows the view visited last; the All tab does not.
  const askedForAll =
    typeof location.state === 'object' && location.state !== null && 'allViews' in location.state
  const toLastView = rawViewId === undefined && !askedForAll ? readLastView(project.id) : null

  useEffect(() => {
    if (!unknownView && toLastView === null) storeLastView(project.id, viewId)
  }, [project.id, viewId, unknownView, toLastView])

  if (toLastView !== null) {
    return <Navigate to={paths.projectTemplates.href(project.id, toLastView)} replace />
  }

  if (unknownView) {
    storeLastView(project.id, null)
    return <Navigate to={paths.projectTemplates.href(project.id)} replace />
  }

  const templateHref = (template: Template) =>
    paths.projectTemplate.href(project.id, template.id, viewId)

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          canManage ? (
            <NewTemplateMenu
              apps={apps.data ?? []}
              isAdmin={isAdmin}
              appsHref={paths.apps.href()}
              onSelect={(app) => setDialog({ kind: 'new', app })}
              onNavigate={(href) => void navigate(href)}
            />
          ) : null
        }
      >
        <ViewTabs
          projectId={project.id}
          views={views.data ?? []}
          currentViewId={viewId}
          hrefFor={(id) => paths.projectTemplates.href(project.id, id)}
          canManage={canManage}
          end={
            <ColumnSettings
              label={t('page.columns')}
              columns={TEMPLATE_COLUMNS.filter((column) => column !== 'name').map((column) => ({
                id: column,
                label: t(`columns.${column}`),
              }))}
              hidden={hidden}
              onChange={(next) => {
                setHidden(next)
                storeHiddenColumns(TABLE_ID, next)
              }}
            />
          }
        />
      </PageHeader>
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={templates.error ?? views.error} />
        {templates.data &&
        (templates.data.templates.length > 0 || listParams.search !== '' || listParams.page > 0) ? (
          <TemplatesListControls
            params={listParams}
            shown={templates.data.templates.length}
            hasNext={templates.data.hasNext}
            onChange={changeList}
          />
        ) : null}
        {templates.data ? (
          templates.data.templates.length === 0 ? (
            listParams.search !== '' ? (
              <EmptyState
                icon={<AssignmentIcon />}
                title={t('list.noMatchTitle')}
                text={t('list.noMatchText', { search: listParams.search })}
              />
            ) : (
              <EmptyState
                icon={<AssignmentIcon />}
                title={t('empty.title')}
                text={t('empty.text')}
              />
            )
          ) : (
            <TemplatesTable
              projectId={project.id}
              templates={templates.data.templates}
              inventories={resources.inventories}
              environments={resources.environments}
              repositories={resources.repositories}
              hiddenColumns={hidden}
              canManage={canManage}
              busyId={deletion.state?.step === 'checking' ? deletion.state.item.id : null}
              templateHref={templateHref}
              onEdit={(template) => setDialog({ kind: 'edit', template })}
              onCopy={(template) => setDialog({ kind: 'copy', template })}
              onDelete={deletion.start}
              renderRun={(template) => (
                <NewTaskButton
                  projectId={project.id}
                  templateId={template.id}
                  label={`${t(runLabelKey(template.type))} ${template.name}`}
                />
              )}
            />
          )
        ) : templates.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <TemplateDialog
            open={dialog !== null}
            projectId={project.id}
            mode={dialog}
            viewId={viewId}
            onClose={() => setDialog(null)}
            onCreated={(created) => {
              if (dialog?.kind === 'copy') {
                void navigate(paths.projectTemplate.href(project.id, created.id, viewId))
              }
            }}
          />
          <SafeDeleteDialogs
            projectId={project.id}
            deletion={deletion}
            object={t('object')}
            confirmTitle={t('delete.title')}
            confirmText={(template) => t('delete.text', { name: template.name })}
            deletedMessage={(template) => t('messages.deleted', { name: template.name })}
            remove={remove}
          />
        </>
      ) : null}
    </>
  )
}
