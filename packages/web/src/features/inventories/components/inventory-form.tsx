import {
  type CreateInventoryBody,
  HOST_INVENTORY_TYPES,
  type Inventory,
  isSafeInventoryPath,
  MAX_NAME_LENGTH,
  MAX_TEXT_BYTES,
  utf8Length,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import { inventoryTypeLabel } from './inventory-type-label'

/** A key or repository to choose in the form. */
export interface Choice {
  id: number
  name: string
}

export interface KeyChoice extends Choice {
  type: string
}

export interface InventoryFormValues {
  name: string
  ssh_key_id: string
  become_key_id: string
  type: string
  inventory: string
  repository_id: string
}

const STATIC_EXAMPLE = '[web]\nweb1.example.com\nweb2.example.com'
const YAML_EXAMPLE = 'all:\n  hosts:\n    web1.example.com:'

export function inventoryFormSchema(t: TFunction<'inventories'>) {
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      ssh_key_id: z.string().min(1, t('form.sshKeyRequired')),
      become_key_id: z.string(),
      type: z.string().min(1, t('form.typeRequired')),
      inventory: z
        .string()
        .trim()
        .refine(
          (text) => utf8Length(text) <= MAX_TEXT_BYTES,
          t('form.tooLong', { max: MAX_TEXT_BYTES }),
        ),
      repository_id: z.string(),
    })
    .superRefine((values, ctx) => {
      if (values.type !== 'file') return
      if (values.inventory === '') {
        ctx.addIssue({ code: 'custom', path: ['inventory'], message: t('form.pathRequired') })
      } else if (!isSafeInventoryPath(values.inventory)) {
        ctx.addIssue({ code: 'custom', path: ['inventory'], message: t('form.pathInvalid') })
      }
    })
}

export type InventoryFormOutput = z.output<ReturnType<typeof inventoryFormSchema>>

export function inventoryToFormValues(inventory: Inventory | null): InventoryFormValues {
  const id = (value: number | null | undefined) => (value ? String(value) : '')
  return {
    name: inventory?.name ?? '',
    ssh_key_id: id(inventory?.ssh_key_id),
    become_key_id: id(inventory?.become_key_id),
    type: inventory?.type ?? 'static',
    inventory: inventory?.inventory ?? '',
    repository_id: id(inventory?.repository_id),
  }
}

export function toInventoryBody(
  values: InventoryFormOutput,
  projectId: number,
): CreateInventoryBody {
  const optionalId = (value: string) => (value === '' ? null : Number(value))
  return {
    name: values.name,
    project_id: projectId,
    type: values.type as CreateInventoryBody['type'],
    inventory: values.inventory,
    ssh_key_id: Number(values.ssh_key_id),
    become_key_id: optionalId(values.become_key_id),
    // Only a file inventory is read from a repository.
    repository_id: values.type === 'file' ? optionalId(values.repository_id) : null,
  }
}

export interface InventoryFormProps {
  id: string
  inventory: Inventory | null
  keys: readonly KeyChoice[]
  repositories: readonly Choice[]
  keysPending?: boolean
  onSubmit: (values: InventoryFormOutput) => void
}

export function InventoryForm({
  id,
  inventory,
  keys,
  repositories,
  keysPending = false,
  onSubmit,
}: InventoryFormProps) {
  const { t } = useTranslation('inventories')
  const schema = useMemo(() => inventoryFormSchema(t), [t])
  const { control, handleSubmit } = useForm<InventoryFormValues, unknown, InventoryFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: inventoryToFormValues(inventory),
    mode: 'onTouched',
  })
  const type = useWatch({ control, name: 'type' })
  const becomeKeyId = useWatch({ control, name: 'become_key_id' })
  // Becoming another user needs a password; a key already chosen stays choosable.
  const becomeKeys = keys.filter(
    (key) => key.type === 'login_password' || String(key.id) === becomeKeyId,
  )
  const types: readonly string[] =
    inventory && !(HOST_INVENTORY_TYPES as readonly string[]).includes(inventory.type)
      ? [...HOST_INVENTORY_TYPES, inventory.type]
      : HOST_INVENTORY_TYPES

  const select = (
    name: 'ssh_key_id' | 'become_key_id' | 'type' | 'repository_id',
    label: string,
    options: readonly { value: string; label: string }[],
    extra: { required?: boolean; hint?: string } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      select
      label={label}
      required={extra.required}
      fullWidth
      hint={extra.hint}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </FormTextField>
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormTextField
          control={control}
          name="name"
          label={t('form.name')}
          required
          autoFocus
          autoComplete="off"
          fullWidth
        />
        {select(
          'ssh_key_id',
          t('form.sshKey'),
          keys.map((key) => ({ value: String(key.id), label: key.name })),
          {
            required: true,
            hint: !keysPending && keys.length === 0 ? t('form.noKeys') : t('form.sshKeyHint'),
          },
        )}
        {select(
          'become_key_id',
          t('form.becomeKey'),
          [
            { value: '', label: t('form.noBecomeKey') },
            ...becomeKeys.map((key) => ({ value: String(key.id), label: key.name })),
          ],
          { hint: t('form.becomeKeyHint') },
        )}
        {select(
          'type',
          t('form.type'),
          types.map((value) => ({ value, label: inventoryTypeLabel(t, value) })),
          { required: true },
        )}
        {type === 'file' ? (
          <>
            <FormTextField
              control={control}
              name="inventory"
              label={t('form.path')}
              required
              autoComplete="off"
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false } }}
              hint={t('form.pathHint')}
            />
            {select('repository_id', t('form.repository'), [
              { value: '', label: t('form.noRepository') },
              ...repositories.map((repository) => ({
                value: String(repository.id),
                label: repository.name,
              })),
            ])}
          </>
        ) : (
          <FormTextField
            control={control}
            name="inventory"
            label={t('form.content')}
            multiline
            minRows={6}
            maxRows={16}
            fullWidth
            placeholder={type === 'static-yaml' ? YAML_EXAMPLE : STATIC_EXAMPLE}
            slotProps={{
              htmlInput: {
                spellCheck: false,
                style: { fontFamily: 'monospace', fontSize: 13 },
              },
            }}
            hint={type === 'static-yaml' ? t('form.contentHintYaml') : t('form.contentHintStatic')}
          />
        )}
      </Stack>
    </form>
  )
}
