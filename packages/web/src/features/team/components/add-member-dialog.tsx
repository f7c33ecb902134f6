import { PROJECT_ROLES, ProjectRole } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { FormTextField } from '../../../components/form-text-field'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCandidates } from '../api/get-candidates'
import { useAddTeamMember } from '../api/team-mutations'
import { roleLabel } from './role-label'

function memberSchema(t: TFunction<'team'>) {
  return z.object({
    user_id: z.string().min(1, t('form.userRequired')),
    role: z.string().min(1, t('form.roleRequired')).pipe(ProjectRole),
  })
}

type MemberValues = { user_id: string; role: string }
type MemberOutput = z.output<ReturnType<typeof memberSchema>>

export interface AddMemberDialogProps {
  open: boolean
  projectId: number
  /** Users already in the team, left out of the choice. */
  memberIds: readonly number[]
  onClose: () => void
}

export function AddMemberDialog({ open, projectId, memberIds, onClose }: AddMemberDialogProps) {
  const { t } = useTranslation('team')
  const { t: tc } = useTranslation()
  const formId = useId()
  const schema = useMemo(() => memberSchema(t), [t])
  const { showMessage } = useSnackbar()
  const candidates = useCandidates(open)
  const add = useAddTeamMember(projectId)
  const { control, handleSubmit, reset } = useForm<MemberValues, unknown, MemberOutput>({
    resolver: zodResolver(schema),
    defaultValues: { user_id: '', role: '' },
    mode: 'onTouched',
  })
  const choices = (candidates.data ?? []).filter((user) => !memberIds.includes(user.id))

  const close = () => {
    reset()
    add.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      title={t('add.title')}
      actions={
        <>
          <Button onClick={close} disabled={add.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={add.isPending}>
            {t('add.submit')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={add.error ?? candidates.error} />
      <form
        id={formId}
        noValidate
        onSubmit={handleSubmit((values) => {
          const userId = Number(values.user_id)
          const user = choices.find((item) => item.id === userId)
          add.mutate(
            { user_id: userId, role: values.role },
            {
              onSuccess: () => {
                showMessage(t('add.added', { name: user?.name ?? values.user_id }))
                close()
              },
            },
          )
        })}
      >
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormTextField
            control={control}
            name="user_id"
            select
            label={t('form.user')}
            required
            fullWidth
            hint={candidates.isSuccess && choices.length === 0 ? t('form.noCandidates') : undefined}
          >
            {choices.map((user) => (
              <MenuItem key={user.id} value={String(user.id)}>
                {user.name} ({user.username})
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField
            control={control}
            name="role"
            select
            label={t('form.role')}
            required
            fullWidth
          >
            {PROJECT_ROLES.map((role) => (
              <MenuItem key={role} value={role}>
                {roleLabel(t, role)}
              </MenuItem>
            ))}
          </FormTextField>
        </Stack>
      </form>
    </AppDialog>
  )
}
