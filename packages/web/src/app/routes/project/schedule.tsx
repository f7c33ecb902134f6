import ScheduleIcon from '@mui/icons-material/Schedule'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AddButton } from '../../../components/add-button'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import {
  invalidateScheduleRuns,
  useCommitCheckSchedules,
  useSchedules,
} from '../../../features/schedules/api/get-schedules'
import {
  useDeleteSchedule,
  useSetScheduleActive,
} from '../../../features/schedules/api/schedule-mutations'
import { ScheduleDialog } from '../../../features/schedules/components/schedule-dialog'
import {
  type ScheduleRow,
  SchedulesTable,
} from '../../../features/schedules/components/schedules-table'
import { useTemplates } from '../../../features/templates/api/templates'
import { useRealtime } from '../../../hooks/use-realtime'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { useCurrentProject } from '../../project-context'

export function ScheduleRoute() {
  const { t } = useTranslation('schedules')
  const { project, can } = useCurrentProject()
  const canManage = can('manageProjectResources')
  const queryClient = useQueryClient()
  const { showMessage } = useSnackbar()
  const schedules = useSchedules(project.id)
  const templates = useTemplates(project.id)
  const templateList = useMemo(() => templates.data ?? [], [templates.data])
  const commitChecks = useCommitCheckSchedules(
    project.id,
    templateList.filter((template) => template.repository_id !== null).map(({ id }) => id),
  )
  const setActive = useSetScheduleActive(project.id)
  const remove = useDeleteSchedule(project.id)
  const [editing, setEditing] = useState<{ schedule: ScheduleRow | null } | null>(null)
  const [deleting, setDeleting] = useState<ScheduleRow | null>(null)

  // A task a schedule started shows up as its last run without waiting for the next refresh.
  useRealtime((message) => {
    if (message.type === 'update' && message.project_id === project.id) {
      invalidateScheduleRuns(queryClient, project.id)
    }
  })

  const rows = useMemo((): ScheduleRow[] | undefined => {
    if (!schedules.data) return undefined
    const names = new Map(templateList.map((template) => [template.id, template.name]))
    const checks = commitChecks.map((check) => ({
      ...check,
      tpl_name: names.get(check.template_id) ?? String(check.template_id),
    }))
    return [...schedules.data, ...checks]
  }, [schedules.data, commitChecks, templateList])

  const openNew = () => setEditing({ schedule: null })

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={canManage ? <AddButton label={t('page.new')} onClick={openNew} /> : null}
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={schedules.error ?? templates.error} />
        {rows ? (
          rows.length === 0 ? (
            <EmptyState
              icon={<ScheduleIcon />}
              title={t('empty.title')}
              text={t('empty.text')}
              action={
                canManage ? (
                  <Button variant="contained" onClick={openNew}>
                    {t('page.new')}
                  </Button>
                ) : undefined
              }
            />
          ) : (
            <SchedulesTable
              projectId={project.id}
              schedules={rows}
              canManage={canManage}
              pendingId={setActive.isPending ? (setActive.variables?.schedule.id ?? null) : null}
              onToggle={(schedule, active) =>
                setActive.mutate(
                  { schedule, active },
                  {
                    onError: (error) =>
                      showMessage(
                        t('messages.toggleFailed', {
                          name: schedule.name,
                          error: getErrorText(error),
                        }),
                        'error',
                      ),
                  },
                )
              }
              onEdit={(schedule) => setEditing({ schedule })}
              onDelete={setDeleting}
            />
          )
        ) : schedules.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      {canManage ? (
        <>
          <ScheduleDialog
            open={editing !== null}
            projectId={project.id}
            schedule={editing?.schedule ?? null}
            templates={templateList}
            onClose={() => setEditing(null)}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={t('delete.title')}
            text={t('delete.text', { name: deleting?.name ?? '' })}
            pending={remove.isPending}
            error={remove.error}
            onClose={() => {
              remove.reset()
              setDeleting(null)
            }}
            onConfirm={() => {
              if (!deleting) return
              remove.mutate(deleting, {
                onSuccess: () => {
                  showMessage(t('messages.deleted', { name: deleting.name }))
                  setDeleting(null)
                },
              })
            }}
          />
        </>
      ) : null}
    </>
  )
}
