import { type Schedule, type Template, templateRoutes } from '@flagman/contract'
import Button from '@mui/material/Button'
import LinearProgress from '@mui/material/LinearProgress'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { api } from '../../../lib/api-client'
import { getErrorText } from '../../../lib/error-text'
import { saveCommitCheck, useCommitChecks, validateCron } from '../api/commit-checks'
import { useTemplateResources, useTemplateWorkspaces } from '../api/resources'
import { useApps, useTemplates } from '../api/templates'
import { templateKeys } from '../api/templates.query-keys'
import {
  commitCheckPlan,
  type TemplateFormOutput,
  templateToFormValues,
  toTemplateBody,
} from '../utils/template-values'
import { TemplateForm } from './template-form'

/** What the dialog does: a new template of an app, an edit, or a copy of a template. */
export type TemplateDialogMode =
  | { kind: 'new'; app: string }
  | { kind: 'edit'; template: Template }
  | { kind: 'copy'; template: Template }

export interface TemplateDialogProps {
  open: boolean
  projectId: number
  mode: TemplateDialogMode | null
  /** The view new templates are put in. */
  viewId?: number | null
  onClose: () => void
  /** Called with the created template (new or copy). */
  onCreated?: (template: Template) => void
}

/**
 * Saves the template, then its commit check. The server checks the cron expression before
 * anything is saved; a failure of the commit check itself is reported, not thrown, since the
 * template is saved by then.
 */
function useSaveTemplate(projectId: number, editing: Template | null, checks: readonly Schedule[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (values: TemplateFormOutput) => {
      const body = toTemplateBody(values, projectId)
      const plan = commitCheckPlan(values)
      if (plan) await validateCron(projectId, plan.cron)
      let created: Template | null = null
      let templateId: number
      if (editing) {
        await api.call(templateRoutes.update, {
          params: { project_id: projectId, template_id: editing.id },
          body: { ...body, id: editing.id },
        })
        templateId = editing.id
      } else {
        created = await api.call(templateRoutes.create, {
          params: { project_id: projectId },
          body,
        })
        templateId = created.id
      }
      let commitCheckError: unknown = null
      try {
        // A copy starts without commit checks of its own.
        await saveCommitCheck(projectId, templateId, plan, editing ? checks : [])
      } catch (error) {
        commitCheckError = error
      }
      return { created, commitCheckError }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all(projectId) }),
  })
}

export function TemplateDialog({
  open,
  projectId,
  mode,
  viewId = null,
  onClose,
  onCreated,
}: TemplateDialogProps) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const resources = useTemplateResources(projectId)
  const templates = useTemplates(projectId)
  const apps = useApps()
  const editing = mode?.kind === 'edit' ? mode.template : null
  // Edits and copies show the commit check of the template they start from.
  const sourceId = open && mode && mode.kind !== 'new' ? mode.template.id : null
  const checks = useCommitChecks(projectId, sourceId)
  const checksReady = sourceId === null || checks.isSuccess || checks.isError
  const save = useSaveTemplate(projectId, editing, checks.data ?? [])
  // The workspaces an edited template owns; they are its choices of a default workspace.
  const workspaces = useTemplateWorkspaces(projectId, editing?.id ?? 0, open && editing !== null)

  const currentApp = mode ? (mode.kind === 'new' ? mode.app : mode.template.app) : ''
  const appChoices = useMemo(() => {
    const list = (apps.data ?? []).filter((app) => app.active || app.id === currentApp)
    if (currentApp && !list.some((app) => app.id === currentApp)) {
      return [
        ...list,
        {
          id: currentApp,
          title: currentApp,
          active: false,
          priority: 0,
          icon: '',
          color: '',
          dark_color: '',
          path: '',
          args: null,
        },
      ]
    }
    return list
  }, [apps.data, currentApp])
  const appTitle = appChoices.find((app) => app.id === currentApp)?.title || currentApp

  const close = () => {
    save.reset()
    onClose()
  }

  const title = !mode
    ? ''
    : mode.kind === 'new'
      ? t('dialog.newTitle', { app: appTitle })
      : mode.kind === 'edit'
        ? t('dialog.editTitle')
        : t('dialog.copyTitle')

  const defaultValues =
    mode && checksReady
      ? mode.kind === 'new'
        ? templateToFormValues(null, mode.app, { viewId })
        : templateToFormValues(mode.template, mode.template.app, {
            nameSuffix: mode.kind === 'copy' ? t('dialog.copySuffix') : '',
            copy: mode.kind === 'copy',
            commitCheck: checks.data?.[0] ?? null,
          })
      : null

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={800}
      title={title}
      actions={
        <>
          <Button onClick={close} disabled={save.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="contained"
            loading={save.isPending}
            disabled={!defaultValues}
          >
            {editing ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={save.error ?? resources.error ?? checks.error} />
      {open && mode && !defaultValues ? <LinearProgress aria-label={t('dialog.loading')} /> : null}
      {open && mode && defaultValues ? (
        <TemplateForm
          key={mode.kind === 'new' ? `new-${mode.app}` : `${mode.kind}-${mode.template.id}`}
          id={formId}
          defaultValues={defaultValues}
          templateId={editing?.id ?? null}
          resources={{
            ...resources,
            templates: templates.data ?? [],
            apps: appChoices,
            workspaces: editing ? (workspaces.data ?? []) : [],
          }}
          onSubmit={(values) => {
            save.mutate(values, {
              onSuccess: ({ created, commitCheckError }) => {
                if (commitCheckError) {
                  showMessage(
                    t('messages.commitCheckFailed', {
                      name: values.name,
                      error: getErrorText(commitCheckError),
                    }),
                    'error',
                  )
                } else if (created) {
                  showMessage(t('messages.created', { name: created.name }))
                } else {
                  showMessage(t('messages.saved', { name: values.name }))
                }
                close()
                if (created) onCreated?.(created)
              },
            })
          }}
        />
      ) : null}
    </AppDialog>
  )
}
