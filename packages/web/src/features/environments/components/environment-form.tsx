import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import {
  type CreateEnvironmentBody,
  type Environment,
  type UpdateEnvironmentBody,
  ENVIRONMENT_IMAGES,
  MAX_NAME_LENGTH,
  MAX_SECRET_LENGTH,
  MAX_TEXT_BYTES,
  SECRET_TYPES,
  SecretType,
  utf8Length,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import { jsonProblem } from '../utils/json-problem'
import { secretChanges, type SecretRow, secretToRow } from '../utils/secret-changes'
import { VariablesEditor } from './variables-editor'

export interface EnvironmentFormValues {
  name: string
  /** A new password; empty keeps the stored one (never shown) or sets none. */
  password: string
  /** Removes the stored password on save. */
  clearPassword: boolean
  /** The chosen Docker image; empty for none. */
  image: string
  json: string
  env: string
  secrets: SecretRow[]
}

export function environmentFormSchema(t: TFunction<'environments'>) {
  const jsonText = z
    .string()
    .refine(
      (text) => utf8Length(text) <= MAX_TEXT_BYTES,
      t('form.tooLong', { max: MAX_TEXT_BYTES }),
    )
    .superRefine((text, ctx) => {
      const problem = jsonProblem(t, text)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, t('form.nameRequired'))
      .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
    password: z.string().max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
    clearPassword: z.boolean(),
    image: z.string().refine((image) => image === '' || ENVIRONMENT_IMAGES.includes(image)),
    json: jsonText,
    env: jsonText,
    secrets: z.array(
      z
        .object({
          secretId: z.number().nullable(),
          name: z.string().max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
          type: SecretType,
          value: z.string().max(MAX_SECRET_LENGTH, t('form.tooLong', { max: MAX_SECRET_LENGTH })),
        })
        .superRefine((row, ctx) => {
          // A new secret needs both; an existing one keeps its value when left empty.
          if (row.secretId !== null && row.secretId !== undefined) return
          if (row.name.trim() === '') {
            ctx.addIssue({ code: 'custom', path: ['name'], message: t('secrets.nameRequired') })
          }
          if (row.value === '') {
            ctx.addIssue({ code: 'custom', path: ['value'], message: t('secrets.valueRequired') })
          }
        }),
    ),
  })
}

export type EnvironmentFormOutput = z.output<ReturnType<typeof environmentFormSchema>>

export function environmentToFormValues(environment: Environment | null): EnvironmentFormValues {
  return {
    name: environment?.name ?? '',
    password: '',
    clearPassword: false,
    image: environment?.image ?? '',
    json: environment?.json || '{}',
    env: environment?.env || '{}',
    secrets: (environment?.secrets ?? []).map(secretToRow),
  }
}

/** Whether the server holds a password for the environment (it answers `""`, never the value). */
export function hasStoredPassword(environment: Environment | null): boolean {
  return environment?.password === ''
}

/**
 * The request body. The password is sent only when one was typed; an edit without one keeps
 * the stored password, or removes it when asked to.
 */
export function toEnvironmentBody(
  values: EnvironmentFormOutput,
  environment: Environment | null,
  projectId: number,
): CreateEnvironmentBody & Pick<UpdateEnvironmentBody, 'clear_password'> {
  const clear = environment !== null && hasStoredPassword(environment) && values.clearPassword
  return {
    name: values.name,
    project_id: projectId,
    ...(clear ? { clear_password: true } : values.password ? { password: values.password } : {}),
    image: values.image || null,
    json: values.json,
    env: values.env,
    secrets: secretChanges(environment?.secrets ?? [], values.secrets),
  }
}

/** The offered images grouped by name (`dind-runner`, `nodejs-runner`), newest version first. */
function imagesNewestFirst(): string[] {
  const groups = new Map<string, string[]>()
  for (const image of ENVIRONMENT_IMAGES) {
    const name = image.split(':')[0] ?? image
    groups.set(name, [image, ...(groups.get(name) ?? [])])
  }
  return [...groups.values()].flat()
}

export interface EnvironmentFormProps {
  id: string
  environment: Environment | null
  onSubmit: (values: EnvironmentFormOutput) => void
}

export function EnvironmentForm({ id, environment, onSubmit }: EnvironmentFormProps) {
  const { t } = useTranslation('environments')
  const secretsHeadingId = useId()
  const schema = useMemo(() => environmentFormSchema(t), [t])
  const { control, handleSubmit, formState } = useForm<
    EnvironmentFormValues,
    unknown,
    EnvironmentFormOutput
  >({
    resolver: zodResolver(schema),
    defaultValues: environmentToFormValues(environment),
    mode: 'onTouched',
  })
  const secrets = useFieldArray({ control, name: 'secrets', keyName: 'fieldKey' })
  const passwordStored = hasStoredPassword(environment)
  const clearPassword = useWatch({ control, name: 'clearPassword' })
  // A row is checked as a whole; a field shows its problem once it was left or the form sent.
  const { errors, touchedFields, isSubmitted } = formState
  const shownError = (index: number, name: 'name' | 'value') =>
    touchedFields.secrets?.[index]?.[name] || isSubmitted
      ? errors.secrets?.[index]?.[name]?.message
      : undefined

  const variables = (name: 'json' | 'env', label: string) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <VariablesEditor
          label={label}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={3} sx={{ pt: 1 }}>
        <FormTextField
          control={control}
          name="name"
          label={t('form.name')}
          required
          autoFocus
          autoComplete="off"
          fullWidth
        />
        <Box>
          <Controller
            name="password"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={clearPassword ? '' : field.value}
                inputRef={field.ref}
                type="password"
                autoComplete="new-password"
                label={t('form.password')}
                fullWidth
                disabled={clearPassword}
                placeholder={passwordStored ? t('form.passwordStored') : undefined}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
                slotProps={{ inputLabel: passwordStored ? { shrink: true } : undefined }}
              />
            )}
          />
          {passwordStored ? (
            <Controller
              name="clearPassword"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  label={t('form.clearPassword')}
                  control={
                    <Checkbox
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                    />
                  }
                />
              )}
            />
          ) : null}
        </Box>
        <Controller
          name="image"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              select
              label={t('form.image')}
              helperText={t('form.imageHint')}
              fullWidth
            >
              <MenuItem value="">
                <em>{t('form.noImage')}</em>
              </MenuItem>
              {imagesNewestFirst().map((image) => (
                <MenuItem key={image} value={image}>
                  {image}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {variables('json', t('form.extraVariables'))}
        {variables('env', t('form.environmentVariables'))}
        <Box component="section" aria-labelledby={secretsHeadingId}>
          <Typography id={secretsHeadingId} variant="subtitle1" component="h3">
            {t('form.secrets')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('form.secretsHint')}
          </Typography>
          {secrets.fields.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              {t('secrets.empty')}
            </Typography>
          ) : null}
          {secrets.fields.map((row, index) => {
            const existing = row.secretId !== null
            const number = index + 1
            return (
              <Box
                key={row.fieldKey}
                sx={{
                  display: 'grid',
                  gap: 1,
                  mb: 1.5,
                  gridTemplateColumns: { xs: '1fr 1fr auto', sm: '2fr 1.4fr 2fr auto' },
                  gridTemplateAreas: {
                    xs: '"name type remove" "value value ."',
                    sm: '"name type value remove"',
                  },
                }}
              >
                <Controller
                  name={`secrets.${index}.name`}
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      inputRef={field.ref}
                      size="small"
                      label={t('secrets.name')}
                      disabled={existing}
                      required={!existing}
                      error={Boolean(shownError(index, 'name'))}
                      helperText={shownError(index, 'name')}
                      sx={{ gridArea: 'name' }}
                      slotProps={{
                        htmlInput: {
                          'aria-label': t('secrets.nameOf', { index: number }),
                          spellCheck: false,
                        },
                      }}
                    />
                  )}
                />
                <Controller
                  name={`secrets.${index}.type`}
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      inputRef={field.ref}
                      select
                      size="small"
                      label={t('secrets.type')}
                      disabled={existing}
                      sx={{ gridArea: 'type' }}
                      slotProps={{
                        htmlInput: { 'aria-label': t('secrets.typeOf', { index: number }) },
                      }}
                    >
                      {SECRET_TYPES.map((type) => (
                        <MenuItem key={type} value={type}>
                          {t(`secrets.types.${type}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
                <Controller
                  name={`secrets.${index}.value`}
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      inputRef={field.ref}
                      size="small"
                      type="password"
                      autoComplete="new-password"
                      label={t('secrets.value')}
                      required={!existing}
                      placeholder={existing ? t('secrets.hidden') : undefined}
                      error={Boolean(shownError(index, 'value'))}
                      helperText={shownError(index, 'value')}
                      sx={{ gridArea: 'value' }}
                      slotProps={{
                        inputLabel: existing ? { shrink: true } : undefined,
                        htmlInput: { 'aria-label': t('secrets.valueOf', { index: number }) },
                      }}
                    />
                  )}
                />
                <IconButton
                  aria-label={t('secrets.remove', { index: number })}
                  onClick={() => secrets.remove(index)}
                  sx={{ gridArea: 'remove', alignSelf: 'start' }}
                >
                  <DeleteIcon />
                </IconButton>
              </Box>
            )
          })}
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => secrets.append({ secretId: null, name: '', type: 'var', value: '' })}
          >
            {t('secrets.add')}
          </Button>
        </Box>
      </Stack>
    </form>
  )
}
