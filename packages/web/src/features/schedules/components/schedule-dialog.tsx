import type { Schedule, Template } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSystemInfo } from '../../system/api/get-info'
import { useCreateSchedule, useUpdateSchedule } from '../api/schedule-mutations'
import { toCreateScheduleBody, toUpdateScheduleBody } from '../utils/schedule-values'
import { ScheduleForm } from './schedule-form'
import { ScheduleRuns } from './schedule-runs'

export interface ScheduleDialogProps {
  open: boolean
  projectId: number
  /** The schedule to edit; `null` creates a new one. */
  schedule: Schedule | null
  templates: readonly Template[]
  onClose: () => void
}

export function ScheduleDialog({
  open,
  projectId,
  schedule,
  templates,
  onClose,
}: ScheduleDialogProps) {
  const { t } = useTranslation('schedules')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const info = useSystemInfo()
  const create = useCreateSchedule(projectId)
  const update = useUpdateSchedule(projectId)
  const mutation = schedule ? update : create

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={640}
      title={schedule ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {schedule ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <>
          <ScheduleForm
            key={schedule?.id ?? 'new'}
            id={formId}
            projectId={projectId}
            schedule={schedule}
            templates={templates}
            serverTimezone={info.data?.schedule_timezone}
            onSubmit={(values) => {
              if (schedule) {
                update.mutate(toUpdateScheduleBody(values, schedule, projectId), {
                  onSuccess: () => {
                    showMessage(t('messages.saved', { name: values.name }))
                    close()
                  },
                })
              } else {
                create.mutate(toCreateScheduleBody(values, projectId), {
                  onSuccess: (created) => {
                    showMessage(t('messages.created', { name: created.name }))
                    close()
                  },
                })
              }
            }}
          />
          {schedule ? <ScheduleRuns projectId={projectId} scheduleId={schedule.id} /> : null}
        </>
      ) : null}
    </AppDialog>
  )
}
