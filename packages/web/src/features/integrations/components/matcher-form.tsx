import {
  BODY_DATA_TYPES,
  type CreateMatcherBody,
  type IntegrationMatcher,
  MATCH_METHODS,
  MATCH_TYPES,
  MAX_NAME_LENGTH,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { bodyDataTypeLabel, matchMethodLabel, sourceLabel } from '../utils/labels'
import { SelectField, TextInputField } from './form-fields'

export interface MatcherFormValues {
  name: string
  match_type: string
  body_data_type: string
  key: string
  method: string
  value: string
}

/** Whether a rule reads a key: a header's name, or a path in a JSON body. */
export function usesKey(source: string, bodyDataType: string): boolean {
  return source === 'header' || (source === 'body' && bodyDataType !== 'string')
}

export function matcherFormSchema(t: TFunction<'integrations'>) {
  const tooLong = t('form.tooLong', { max: MAX_NAME_LENGTH })
  return z
    .object({
      name: z.string().trim().min(1, t('matchers.nameRequired')).max(MAX_NAME_LENGTH, tooLong),
      match_type: z.string().min(1, t('matchers.matchTypeRequired')).pipe(z.enum(MATCH_TYPES)),
      body_data_type: z.string(),
      key: z.string().trim().max(MAX_NAME_LENGTH, tooLong),
      method: z.string().min(1, t('matchers.methodRequired')).pipe(z.enum(MATCH_METHODS)),
      value: z
        .string()
        .min(1, t('matchers.valueRequired'))
        .max(MAX_NAME_LENGTH * 4, t('form.tooLong', { max: MAX_NAME_LENGTH * 4 })),
    })
    .superRefine((values, ctx) => {
      if (values.match_type === 'body' && values.body_data_type === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['body_data_type'],
          message: t('matchers.bodyDataTypeRequired'),
        })
      }
      if (usesKey(values.match_type, values.body_data_type) && values.key === '') {
        ctx.addIssue({ code: 'custom', path: ['key'], message: t('matchers.keyRequired') })
      }
    })
}

export type MatcherFormOutput = z.output<ReturnType<typeof matcherFormSchema>>

export function matcherToFormValues(matcher: IntegrationMatcher | null): MatcherFormValues {
  return {
    name: matcher?.name ?? '',
    match_type: matcher?.match_type ?? '',
    body_data_type: matcher?.body_data_type || 'json',
    key: matcher?.key ?? '',
    method: matcher?.method ?? 'equals',
    value: matcher?.value ?? '',
  }
}

export function toMatcherBody(values: MatcherFormOutput, integrationId: number): CreateMatcherBody {
  const body = values.match_type === 'body'
  const bodyDataType = body && values.body_data_type === 'string' ? 'string' : 'json'
  return {
    integration_id: integrationId,
    name: values.name,
    match_type: values.match_type,
    method: values.method,
    body_data_type: body ? bodyDataType : '',
    key: usesKey(values.match_type, values.body_data_type) ? values.key : '',
    value: values.value,
  }
}

export interface MatcherFormProps {
  id: string
  matcher: IntegrationMatcher | null
  onSubmit: (values: MatcherFormOutput) => void
}

export function MatcherForm({ id, matcher, onSubmit }: MatcherFormProps) {
  const { t } = useTranslation('integrations')
  const schema = useMemo(() => matcherFormSchema(t), [t])
  const { control, handleSubmit } = useForm<MatcherFormValues, unknown, MatcherFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: matcherToFormValues(matcher),
    mode: 'onTouched',
  })
  const source = useWatch({ control, name: 'match_type' })
  const bodyDataType = useWatch({ control, name: 'body_data_type' })

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextInputField
          control={control}
          name="name"
          label={t('matchers.name')}
          required
          autoFocus
        />
        <SelectField
          control={control}
          name="match_type"
          label={t('matchers.matchType')}
          options={MATCH_TYPES.map((value) => ({ value, label: sourceLabel(t, value) }))}
        />
        {source === 'body' ? (
          <SelectField
            control={control}
            name="body_data_type"
            label={t('matchers.bodyDataType')}
            hint={bodyDataType === 'string' ? t('form.wholeBodyHint') : undefined}
            options={BODY_DATA_TYPES.map((value) => ({
              value,
              label: bodyDataTypeLabel(t, value),
            }))}
          />
        ) : null}
        {usesKey(source, bodyDataType) ? (
          <TextInputField
            control={control}
            name="key"
            label={t('matchers.key')}
            required
            hint={source === 'header' ? t('form.headerKeyHint') : t('form.jsonKeyHint')}
          />
        ) : null}
        <SelectField
          control={control}
          name="method"
          label={t('matchers.method')}
          options={MATCH_METHODS.map((value) => ({ value, label: matchMethodLabel(t, value) }))}
        />
        <TextInputField control={control} name="value" label={t('matchers.value')} required />
      </Stack>
    </form>
  )
}
