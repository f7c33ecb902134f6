import type { Task, Template } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormGroup from '@mui/material/FormGroup'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useBuildVersions, useCreateTask, useTaskTemplate } from '../api/tasks'
import {
  allowsBranchOverride,
  ANSIBLE_LISTS,
  COMMIT_MESSAGE_LENGTH,
  initialTaskForm,
  paramFlags,
  taskBody,
  type TaskFormErrors,
  type TaskFormValues,
  validateTaskForm,
} from '../task-form'

/** Width of the new task dialog in pixels. */
const NEW_TASK_DIALOG_WIDTH = 500

export interface NewTaskDialogProps {
  projectId: number
  templateId: number
  onClose: () => void
  /** Called with the started task; the caller usually opens its log (`?t={id}`). */
  onCreated: (task: Task) => void
}

/** Starts a task of a template; loads the template itself. */
export function NewTaskDialog({ projectId, templateId, onClose, onCreated }: NewTaskDialogProps) {
  const { t } = useTranslation('tasks')
  const template = useTaskTemplate(projectId, templateId)
  const titleKey =
    template.data?.type === 'build'
      ? 'form.titleBuild'
      : template.data?.type === 'deploy'
        ? 'form.titleDeploy'
        : 'form.title'
  return (
    <AppDialog
      open
      onClose={onClose}
      width={NEW_TASK_DIALOG_WIDTH}
      title={template.data ? `${t(titleKey)}: ${template.data.name}` : t('form.title')}
    >
      {template.error ? <ErrorAlert error={template.error} /> : null}
      {template.data ? (
        <TaskForm
          projectId={projectId}
          template={template.data}
          onClose={onClose}
          onCreated={onCreated}
        />
      ) : template.isPending ? (
        <LoadingState />
      ) : null}
    </AppDialog>
  )
}

function TaskForm({
  projectId,
  template,
  onClose,
  onCreated,
}: {
  projectId: number
  template: Template
  onClose: () => void
  onCreated: (task: Task) => void
}) {
  const { t } = useTranslation('tasks')
  const [values, setValues] = useState<TaskFormValues>(() => initialTaskForm(template))
  const [errors, setErrors] = useState<TaskFormErrors | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const create = useCreateTask(projectId)
  const isDeploy = template.type === 'deploy'
  const builds = useBuildVersions(projectId, isDeploy ? template.build_template_id : null)
  const newestBuild = builds.data?.[0]?.id ?? null
  const buildTaskId = values.buildTaskId ?? newestBuild
  const current: TaskFormValues = { ...values, buildTaskId }

  const messages = {
    required: (title: string) => t('form.required', { title }),
    mustBeInteger: t('form.mustBeInteger'),
    argRequired: t('form.argRequired'),
    buildRequired: t('form.buildRequired'),
  }
  const update = (next: TaskFormValues) => {
    setValues(next)
    if (submitted)
      setErrors(
        validateTaskForm(
          template,
          { ...next, buildTaskId: next.buildTaskId ?? newestBuild },
          messages,
        ),
      )
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    const found = validateTaskForm(template, current, messages)
    setErrors(found)
    if (found) return
    create.mutate(taskBody(template, current), { onSuccess: (task) => onCreated(task) })
  }

  const runLabel =
    template.type === 'build' ? t('form.build') : isDeploy ? t('form.deploy') : t('form.run')

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <ErrorAlert error={create.error} />
        {isDeploy ? (
          <TextField
            select
            required
            label={t('form.buildVersion')}
            value={buildTaskId ?? ''}
            onChange={(event) => update({ ...values, buildTaskId: Number(event.target.value) })}
            error={Boolean(errors?.buildTaskId)}
            helperText={
              errors?.buildTaskId ?? (builds.data?.length === 0 ? t('form.noBuilds') : undefined)
            }
          >
            {(builds.data ?? []).map((build) => (
              <MenuItem key={build.id} value={build.id}>
                {[
                  build.version ?? `#${build.id}`,
                  (build.message || build.commit_message).slice(0, COMMIT_MESSAGE_LENGTH),
                ]
                  .filter(Boolean)
                  .join(' — ')}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <TextField
          label={t('form.message')}
          value={values.message}
          onChange={(event) => update({ ...values, message: event.target.value })}
        />
        {(template.survey_vars ?? []).map((variable) => {
          const value = values.survey[variable.name] ?? ''
          const error = errors?.survey?.[variable.name]
          const setValue = (next: string) =>
            update({ ...values, survey: { ...values.survey, [variable.name]: next } })
          const common = {
            label: variable.title,
            required: variable.required,
            value,
            error: Boolean(error),
            helperText: error ?? (variable.description || undefined),
          }
          if (variable.type === 'enum') {
            return (
              <TextField
                key={variable.name}
                select
                {...common}
                onChange={(event) => setValue(event.target.value)}
              >
                <MenuItem value="">
                  <em>{t('form.none')}</em>
                </MenuItem>
                {variable.values.map((option) => (
                  <MenuItem key={option.name} value={option.value}>
                    {option.name}
                  </MenuItem>
                ))}
              </TextField>
            )
          }
          return (
            <TextField
              key={variable.name}
              {...common}
              type={variable.type === 'secret' ? 'password' : 'text'}
              slotProps={
                variable.type === 'int' ? { htmlInput: { inputMode: 'numeric' } } : undefined
              }
              onChange={(event) => setValue(event.target.value)}
            />
          )
        })}
        {template.allow_override_args_in_task ? (
          <Stack spacing={1}>
            <Typography variant="subtitle2">{t('form.args')}</Typography>
            {values.args.map((arg, index) => (
              <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  fullWidth
                  size="small"
                  required
                  label={t('form.arg', { index: index + 1 })}
                  value={arg}
                  error={Boolean(errors?.args?.[index])}
                  helperText={errors?.args?.[index]}
                  onChange={(event) =>
                    update({
                      ...values,
                      args: values.args.map((a, i) => (i === index ? event.target.value : a)),
                    })
                  }
                />
                <IconButton
                  aria-label={t('form.removeArg', { index: index + 1 })}
                  onClick={() =>
                    update({ ...values, args: values.args.filter((_, i) => i !== index) })
                  }
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Button
              startIcon={<AddIcon />}
              sx={{ alignSelf: 'flex-start' }}
              onClick={() => update({ ...values, args: [...values.args, ''] })}
            >
              {t('form.addArg')}
            </Button>
          </Stack>
        ) : null}
        {allowsBranchOverride(template) ? (
          <TextField
            label={t('form.branch')}
            value={values.branch}
            placeholder={template.git_branch ?? undefined}
            helperText={t('form.branchHint')}
            onChange={(event) => update({ ...values, branch: event.target.value })}
          />
        ) : null}
        {template.app === 'ansible'
          ? ANSIBLE_LISTS.map((list) => (
              <TextField
                key={list}
                label={t(list === 'skip_tags' ? 'form.skipTags' : `form.${list}`)}
                value={values.lists[list]}
                helperText={t('form.listHint')}
                onChange={(event) =>
                  update({ ...values, lists: { ...values.lists, [list]: event.target.value } })
                }
              />
            ))
          : null}
        {paramFlags(template.app).length > 0 ? (
          <FormGroup row>
            {paramFlags(template.app).map((flag) => (
              <FormControlLabel
                key={flag}
                control={
                  <Checkbox
                    checked={values.params[flag] ?? false}
                    onChange={(event) =>
                      update({
                        ...values,
                        params: { ...values.params, [flag]: event.target.checked },
                      })
                    }
                  />
                }
                label={t(`form.params.${flag}` as 'form.params.debug')}
              />
            ))}
          </FormGroup>
        ) : null}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {runLabel}
          </Button>
        </Stack>
      </Stack>
    </form>
  )
}
