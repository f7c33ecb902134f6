import {
  classifyRepositoryUrl,
  type CreateRepositoryBody,
  MAX_NAME_LENGTH,
  type Repository,
  repositoryUrlPassword,
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

/** Longest repository URL the server accepts. */
const MAX_URL_LENGTH = 2048

/** A key to choose as the repository's access key. */
export interface KeyChoice {
  id: number
  name: string
}

export interface RepositoryFormValues {
  name: string
  git_url: string
  git_branch: string
  ssh_key_id: string
}

export function repositoryFormSchema(t: TFunction<'repositories'>) {
  const tooLong = (max: number) => t('form.tooLong', { max })
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH)),
      git_url: z
        .string()
        .trim()
        .min(1, t('form.urlRequired'))
        .max(MAX_URL_LENGTH, tooLong(MAX_URL_LENGTH))
        .refine((url) => classifyRepositoryUrl(url) !== null, t('form.urlIncorrect'))
        // The server refuses passwords in URLs: they belong in the key store.
        .refine((url) => repositoryUrlPassword(url) === null, t('form.urlPassword')),
      git_branch: z.string().trim().max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH)),
      ssh_key_id: z.string().min(1, t('form.accessKeyRequired')),
    })
    .superRefine((values, ctx) => {
      const kind = classifyRepositoryUrl(values.git_url)
      // A local folder has no branch to check out.
      if (kind !== null && kind !== 'local' && values.git_branch === '') {
        ctx.addIssue({ code: 'custom', path: ['git_branch'], message: t('form.branchRequired') })
      }
    })
}

export type RepositoryFormOutput = z.output<ReturnType<typeof repositoryFormSchema>>

export function repositoryToFormValues(repository: Repository | null): RepositoryFormValues {
  return {
    name: repository?.name ?? '',
    git_url: repository?.git_url ?? '',
    git_branch: repository?.git_branch ?? '',
    ssh_key_id: repository ? String(repository.ssh_key_id) : '',
  }
}

export function toRepositoryBody(
  values: RepositoryFormOutput,
  projectId: number,
): CreateRepositoryBody {
  const local = classifyRepositoryUrl(values.git_url) === 'local'
  return {
    name: values.name,
    project_id: projectId,
    git_url: values.git_url,
    git_branch: local ? '' : values.git_branch,
    ssh_key_id: Number(values.ssh_key_id),
  }
}

type TextName = 'name' | 'git_url' | 'git_branch'

export interface RepositoryFormProps {
  id: string
  repository: Repository | null
  keys: readonly KeyChoice[]
  /** The keys are still loading. */
  keysPending?: boolean
  onSubmit: (values: RepositoryFormOutput) => void
}

export function RepositoryForm({
  id,
  repository,
  keys,
  keysPending = false,
  onSubmit,
}: RepositoryFormProps) {
  const { t } = useTranslation('repositories')
  const schema = useMemo(() => repositoryFormSchema(t), [t])
  const { control, handleSubmit } = useForm<RepositoryFormValues, unknown, RepositoryFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: repositoryToFormValues(repository),
    mode: 'onTouched',
  })
  const url = useWatch({ control, name: 'git_url' })
  const local = classifyRepositoryUrl(url) === 'local'

  const text = (
    name: TextName,
    label: string,
    options: { hint?: string; placeholder?: string; autoFocus?: boolean } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      required
      autoComplete="off"
      autoFocus={options.autoFocus}
      placeholder={options.placeholder}
      fullWidth
      slotProps={{ htmlInput: { spellCheck: false } }}
      hint={options.hint}
    />
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {text('name', t('form.name'), { autoFocus: true })}
        {text('git_url', t('form.gitUrl'), { hint: t('form.gitUrlHint') })}
        {local ? null : text('git_branch', t('form.branch'), { placeholder: 'main' })}
        <FormTextField
          control={control}
          name="ssh_key_id"
          select
          label={t('form.accessKey')}
          required
          fullWidth
          hint={!keysPending && keys.length === 0 ? t('form.noKeys') : t('form.accessKeyHint')}
        >
          {keys.map((key) => (
            <MenuItem key={key.id} value={String(key.id)}>
              {key.name}
            </MenuItem>
          ))}
        </FormTextField>
      </Stack>
    </form>
  )
}
