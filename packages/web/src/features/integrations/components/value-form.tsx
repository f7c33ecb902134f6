import {
  BODY_DATA_TYPES,
  type CreateExtractValueBody,
  type IntegrationExtractValue,
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
import { bodyDataTypeLabel, sourceLabel } from '../utils/labels'
import { SelectField, TextInputField } from './form-fields'
import { usesKey } from './matcher-form'

/** The contract's rule for a variable a task's process environment can hold. */
export const VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface ValueFormValues {
  name: string
  value_source: string
  body_data_type: string
  key: string
  variable: string
}

export function valueFormSchema(t: TFunction<'integrations'>) {
  const tooLong = t('form.tooLong', { max: MAX_NAME_LENGTH })
  return z
    .object({
      name: z.string().trim().min(1, t('values.nameRequired')).max(MAX_NAME_LENGTH, tooLong),
      value_source: z.string().min(1, t('values.valueSourceRequired')).pipe(z.enum(MATCH_TYPES)),
      body_data_type: z.string(),
      key: z.string().trim().max(MAX_NAME_LENGTH, tooLong),
      variable: z
        .string()
        .trim()
        .min(1, t('values.variableRequired'))
        .max(MAX_NAME_LENGTH, tooLong)
        .regex(VARIABLE_PATTERN, t('values.variableRule')),
    })
    .superRefine((values, ctx) => {
      if (values.value_source === 'body' && values.body_data_type === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['body_data_type'],
          message: t('values.bodyDataTypeRequired'),
        })
      }
      if (usesKey(values.value_source, values.body_data_type) && values.key === '') {
        ctx.addIssue({ code: 'custom', path: ['key'], message: t('values.keyRequired') })
      }
    })
}

export type ValueFormOutput = z.output<ReturnType<typeof valueFormSchema>>

export function valueToFormValues(value: IntegrationExtractValue | null): ValueFormValues {
  return {
    name: value?.name ?? '',
    value_source: value?.value_source ?? '',
    body_data_type: value?.body_data_type || 'json',
    key: value?.key ?? '',
    variable: value?.variable ?? '',
  }
}

export function toValueBody(
  values: ValueFormOutput,
  integrationId: number,
): CreateExtractValueBody {
  const body = values.value_source === 'body'
  const bodyDataType = body && values.body_data_type === 'string' ? 'string' : 'json'
  return {
    integration_id: integrationId,
    name: values.name,
    value_source: values.value_source,
    body_data_type: body ? bodyDataType : '',
    key: usesKey(values.value_source, values.body_data_type) ? values.key : '',
    variable: values.variable,
  }
}

export interface ValueFormProps {
  id: string
  value: IntegrationExtractValue | null
  onSubmit: (values: ValueFormOutput) => void
}

export function ValueForm({ id, value, onSubmit }: ValueFormProps) {
  const { t } = useTranslation('integrations')
  const schema = useMemo(() => valueFormSchema(t), [t])
  const { control, handleSubmit } = useForm<ValueFormValues, unknown, ValueFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: valueToFormValues(value),
    mode: 'onTouched',
  })
  const source = useWatch({ control, name: 'value_source' })
  const bodyDataType = useWatch({ control, name: 'body_data_type' })

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextInputField control={control} name="name" label={t('values.name')} required autoFocus />
        <SelectField
          control={control}
          name="value_source"
          label={t('values.valueSource')}
          options={MATCH_TYPES.map((item) => ({ value: item, label: sourceLabel(t, item) }))}
        />
        {source === 'body' ? (
          <SelectField
            control={control}
            name="body_data_type"
            label={t('values.bodyDataType')}
            hint={bodyDataType === 'string' ? t('form.wholeBodyHint') : undefined}
            options={BODY_DATA_TYPES.map((item) => ({
              value: item,
              label: bodyDataTypeLabel(t, item),
            }))}
          />
        ) : null}
        {usesKey(source, bodyDataType) ? (
          <TextInputField
            control={control}
            name="key"
            label={t('values.key')}
            required
            hint={source === 'header' ? t('form.headerKeyHint') : t('form.jsonKeyHint')}
          />
        ) : null}
        <TextInputField
          control={control}
          name="variable"
          label={t('values.variable')}
          required
          hint={t('values.variableHint')}
        />
      </Stack>
    </form>
  )
}
