import {
  type AccessKey,
  type App,
  appFields,
  COMMIT_CHECK_INTERVALS,
  DEFAULT_BACKEND_FILENAME,
  type Environment,
  type Inventory,
  type Repository,
  type Template,
  type View,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import Checkbox from '@mui/material/Checkbox'
import Divider from '@mui/material/Divider'
import FormControlLabel from '@mui/material/FormControlLabel'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type ReactNode, useMemo } from 'react'
import { Controller, type FieldPath, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormTextField } from '../../../components/form-text-field'
import {
  type TemplateFormOutput,
  type TemplateFormValues,
  templateFormSchema,
  usesBackend,
} from '../utils/template-values'
import { ArgsEditor } from './args-editor'
import { SurveyVarsEditor } from './survey-vars-editor'
import { VaultsEditor } from './vaults-editor'

export interface TemplateFormResources {
  inventories: readonly Inventory[]
  repositories: readonly Repository[]
  environments: readonly Environment[]
  keys: readonly AccessKey[]
  views: readonly View[]
  /** Templates of the project, for the build template of a deploy template. */
  templates: readonly Template[]
  /** Apps the template may use. */
  apps: readonly App[]
  /** Workspaces the edited template owns (Terraform and OpenTofu). */
  workspaces?: readonly Inventory[]
}

export interface TemplateFormProps {
  id: string
  defaultValues: TemplateFormValues
  /** The template being edited, if any (it can not be its own build template). */
  templateId: number | null
  resources: TemplateFormResources
  onSubmit: (values: TemplateFormOutput) => void
}

type SelectName =
  'inventory_id' | 'repository_id' | 'environment_id' | 'view_id' | 'build_template_id'

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={1.5} component="section">
      <Divider textAlign="left">
        <Typography variant="overline" component="h3" sx={{ color: 'text.secondary' }}>
          {title}
        </Typography>
      </Divider>
      {children}
    </Stack>
  )
}

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
} as const

export function TemplateForm({
  id,
  defaultValues,
  templateId,
  resources,
  onSubmit,
}: TemplateFormProps) {
  const { t } = useTranslation('templates')
  const schema = useMemo(() => templateFormSchema(t), [t])
  const { control, handleSubmit, formState, setValue, trigger } = useForm<
    TemplateFormValues,
    unknown,
    TemplateFormOutput
  >({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onTouched',
  })
  const app = useWatch({ control, name: 'app' })
  const type = useWatch({ control, name: 'type' })
  const commitCheck = useWatch({ control, name: 'commit_check' })
  const overrideBackend = useWatch({ control, name: 'override_backend' })
  const fields = appFields(app)
  const playbookLabel = t(`form.playbook.${fields.playbookKind}`)
  const workspaceApp = app === 'terraform' || app === 'tofu'

  // A Terraform or OpenTofu template uses a workspace it owns or a free one, which it then owns.
  const inventoryOptions = workspaceApp
    ? [
        ...(resources.workspaces ?? []).filter((item) => item.template_id === templateId),
        ...resources.inventories.filter((item) => item.template_id === null),
      ].filter(
        (item, index, list) =>
          item.type === `${app}-workspace` &&
          list.findIndex((other) => other.id === item.id) === index,
      )
    : resources.inventories.filter(
        (item) => item.type === 'static' || item.type === 'static-yaml' || item.type === 'file',
      )
  const showInventory =
    fields.inventory !== 'hidden' && (!workspaceApp || inventoryOptions.length > 0)
  const buildTemplates = resources.templates.filter(
    (item) => item.type === 'build' && item.id !== templateId,
  )

  const text = (
    name: FieldPath<TemplateFormValues> &
      ('name' | 'description' | 'playbook' | 'start_version' | 'git_branch' | 'runner_tag'),
    label: string,
    options: {
      required?: boolean
      helperText?: string
      multiline?: boolean
      autoFocus?: boolean
    } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      required={options.required}
      autoFocus={options.autoFocus}
      autoComplete="off"
      fullWidth
      multiline={options.multiline}
      minRows={options.multiline ? 2 : undefined}
      hint={options.helperText}
    />
  )

  const select = (
    name: SelectName,
    label: string,
    options: readonly { id: number; name: string }[],
    required: boolean,
  ) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          inputRef={field.ref}
          select
          label={label}
          required={required}
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {required ? null : (
            <MenuItem value="">
              <em>{t('form.none')}</em>
            </MenuItem>
          )}
          {required && field.value === '' ? (
            <MenuItem value="" disabled sx={{ display: 'none' }} />
          ) : null}
          {options.map((item) => (
            <MenuItem key={item.id} value={String(item.id)}>
              {item.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  )

  const toggle = (
    name:
      | 'autorun'
      | 'allow_override_args_in_task'
      | 'suppress_success_alerts'
      | 'commit_check'
      | 'override_backend',
    label: string,
    onToggle?: (checked: boolean) => void,
  ) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControlLabel
          control={
            <Switch
              checked={field.value}
              onChange={(event) => {
                field.onChange(event.target.checked)
                onToggle?.(event.target.checked)
              }}
              onBlur={field.onBlur}
            />
          }
          label={label}
        />
      )}
    />
  )

  const intervalOptions = (current: string) => {
    const known: { cron: string; label: string }[] = COMMIT_CHECK_INTERVALS.map((item) => ({
      cron: item.cron,
      label: t(`form.commitCheckIntervals.${item.id}`),
    }))
    // A schedule made through the API may use another expression; it is kept as it is.
    if (current !== '' && !known.some((item) => item.cron === current)) {
      known.push({ cron: current, label: t('form.commitCheckCustom', { cron: current }) })
    }
    return known
  }

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={3} sx={{ pt: 1 }}>
        <Section title={t('form.sections.general')}>
          <Box sx={grid}>
            {text('name', t('form.name'), { required: true, autoFocus: true })}
            <Controller
              name="app"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  select
                  label={t('form.app')}
                  fullWidth
                  onChange={(event) => {
                    field.onChange(event)
                    // Inventories of one app (hosts, workspaces) do not fit another.
                    setValue('inventory_id', '')
                  }}
                >
                  {resources.apps.map((item) => (
                    <MenuItem key={item.id} value={item.id}>
                      {item.title || item.id}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Box>
          {text('description', t('form.description'), { multiline: true })}
          <Box sx={grid}>
            <Controller
              name="type"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  select
                  label={t('form.type')}
                  fullWidth
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                >
                  <MenuItem value="">{t('types.task')}</MenuItem>
                  <MenuItem value="build">{t('types.build')}</MenuItem>
                  <MenuItem value="deploy">{t('types.deploy')}</MenuItem>
                </TextField>
              )}
            />
            {type === 'build'
              ? text('start_version', t('form.startVersion'), {
                  required: true,
                  helperText: t('form.startVersionHelp'),
                })
              : null}
            {type === 'deploy'
              ? select('build_template_id', t('form.buildTemplate'), buildTemplates, true)
              : null}
          </Box>
          {type === 'deploy' ? toggle('autorun', t('form.autorun')) : null}
        </Section>
        <Section title={t('form.sections.resources')}>
          <Box sx={grid}>
            {fields.playbook !== 'hidden'
              ? text('playbook', playbookLabel, {
                  required: fields.playbook === 'required',
                  helperText: t(`form.playbookHelp.${fields.playbookKind}`),
                })
              : null}
            {showInventory
              ? select(
                  'inventory_id',
                  workspaceApp ? t('form.workspace') : t('form.inventory'),
                  inventoryOptions,
                  fields.inventory === 'required',
                )
              : null}
            {select(
              'repository_id',
              t('form.repository'),
              resources.repositories,
              fields.repository === 'required' || commitCheck,
            )}
            {text('git_branch', t('form.gitBranch'), { helperText: t('form.gitBranchHelp') })}
            {select(
              'environment_id',
              t('form.environment'),
              resources.environments,
              fields.environment === 'required',
            )}
            {select(
              'view_id',
              t('form.view'),
              resources.views.map((view) => ({ id: view.id, name: view.title })),
              false,
            )}
          </Box>
          <Controller
            name="allow_override_branch_in_task"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Checkbox
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                  />
                }
                label={t('form.allowOverrideBranch')}
              />
            )}
          />
          <Box sx={grid}>
            {toggle('commit_check', t('form.commitCheck'), () => {
              // The repository is required only while the check is on.
              if (formState.isSubmitted) void trigger('repository_id')
            })}
            {commitCheck ? (
              <Controller
                name="commit_check_cron"
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    inputRef={field.ref}
                    select
                    label={t('form.commitCheckInterval')}
                    required
                    fullWidth
                    error={Boolean(fieldState.error)}
                    helperText={fieldState.error?.message}
                  >
                    {intervalOptions(field.value).map((item) => (
                      <MenuItem key={item.cron} value={item.cron}>
                        {item.label}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : null}
          </Box>
        </Section>
        <Section title={t('form.sections.args')}>
          <Controller
            name="arguments"
            control={control}
            render={({ field }) => (
              <ArgsEditor
                value={field.value}
                onChange={field.onChange}
                errors={
                  Array.isArray(formState.errors.arguments)
                    ? formState.errors.arguments.map(
                        (item: { message?: string } | undefined) => item?.message,
                      )
                    : []
                }
              />
            )}
          />
          {toggle('allow_override_args_in_task', t('form.allowOverrideArgs'))}
        </Section>
        <Section title={t('form.sections.survey')}>
          <Controller
            name="survey_vars"
            control={control}
            render={({ field }) => (
              <SurveyVarsEditor value={field.value} onChange={field.onChange} />
            )}
          />
        </Section>
        {fields.vaults ? (
          <Section title={t('form.sections.vaults')}>
            <Controller
              name="vaults"
              control={control}
              render={({ field, fieldState }) => (
                <VaultsEditor
                  value={field.value}
                  onChange={field.onChange}
                  keys={resources.keys}
                  showErrors={formState.isSubmitted}
                  error={fieldState.error?.message ?? formState.errors.vaults?.root?.message}
                />
              )}
            />
          </Section>
        ) : null}
        <Section title={t('form.sections.options')}>
          {usesBackend(app) ? (
            <Box sx={grid}>
              {toggle('override_backend', t('form.overrideBackend'))}
              {overrideBackend ? (
                <FormTextField
                  control={control}
                  name="backend_filename"
                  label={t('form.backendFilename')}
                  placeholder={DEFAULT_BACKEND_FILENAME}
                  autoComplete="off"
                  fullWidth
                  hint={t('form.backendFilenameHelp')}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
              ) : null}
            </Box>
          ) : null}
          {toggle('suppress_success_alerts', t('form.suppressSuccessAlerts'))}
          <Box sx={grid}>
            {text('runner_tag', t('form.runnerTag'), { helperText: t('form.runnerTagHelp') })}
          </Box>
        </Section>
      </Stack>
    </form>
  )
}
