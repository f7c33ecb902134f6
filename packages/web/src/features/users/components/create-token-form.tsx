import { MAX_TOKEN_NAME_LENGTH, type CreateTokenBody } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'

/** Today in the browser's time zone, as a date input holds it (YYYY-MM-DD). */
function today(): string {
  const now = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** The end of a chosen day, in the browser's time zone, as the server takes it. */
export function endOfDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number)
  return new Date(year ?? 0, (month ?? 1) - 1, day ?? 1, 23, 59, 59, 999).toISOString()
}

function tokenSchema(t: TFunction<'users'>) {
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, t('tokens.nameRequired'))
      .max(MAX_TOKEN_NAME_LENGTH, t('form.tooLong', { max: MAX_TOKEN_NAME_LENGTH })),
    expires: z
      .string()
      .refine(
        (value) => value === '' || /^\d{4}-\d\d-\d\d$/.test(value),
        t('tokens.expiresInvalid'),
      )
      .refine((value) => value === '' || value >= today(), t('tokens.expiresPast')),
  })
}

type TokenValues = z.infer<ReturnType<typeof tokenSchema>>

export interface CreateTokenFormProps {
  pending: boolean
  onSubmit: (body: CreateTokenBody) => void
}

/** A name and an optional last day for a new API token. */
export function CreateTokenForm({ pending, onSubmit }: CreateTokenFormProps) {
  const { t } = useTranslation('users')
  const schema = useMemo(() => tokenSchema(t), [t])
  const { control, handleSubmit } = useForm<TokenValues>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', expires: '' },
    mode: 'onTouched',
  })

  return (
    <form
      noValidate
      onSubmit={handleSubmit(({ name, expires }) =>
        onSubmit({ name, expires_at: expires ? endOfDay(expires) : null }),
      )}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'flex-start' }}>
        <FormTextField
          control={control}
          name="name"
          label={t('tokens.name')}
          required
          fullWidth
          size="small"
        />
        <FormTextField
          control={control}
          name="expires"
          label={t('tokens.expiresOn')}
          type="date"
          fullWidth
          size="small"
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today() } }}
          hint={t('tokens.expiresHint')}
        />
        <Button
          type="submit"
          variant="contained"
          loading={pending}
          sx={{ flexShrink: 0, mt: { sm: 0.25 } }}
        >
          {t('tokens.create')}
        </Button>
      </Stack>
    </form>
  )
}
