import ExitToAppIcon from '@mui/icons-material/ExitToApp'
import PersonAddIcon from '@mui/icons-material/PersonAdd'
import type { TeamMember } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import { useTeam } from '../../../features/team/api/get-team'
import {
  useLeaveProject,
  useRemoveTeamMember,
  useUpdateTeamMember,
} from '../../../features/team/api/team-mutations'
import { AddMemberDialog } from '../../../features/team/components/add-member-dialog'
import { TeamTable } from '../../../features/team/components/team-table'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { storeProjectId } from '../../../lib/storage'
import { projectAfterDelete } from '../../../features/projects/utils/choose-project'
import { useCurrentProject } from '../../project-context'
import { useSession } from '../../session'

export function TeamRoute() {
  const { t } = useTranslation('team')
  const { project, role, can } = useCurrentProject()
  const { projects } = useSession()
  const navigate = useNavigate()
  const { showMessage } = useSnackbar()
  const team = useTeam(project.id)
  const update = useUpdateTeamMember(project.id)
  const remove = useRemoveTeamMember(project.id)
  const leave = useLeaveProject(project.id)
  const [adding, setAdding] = useState(false)
  const [removing, setRemoving] = useState<TeamMember | null>(null)
  const [leaving, setLeaving] = useState(false)
  const canManage = can('manageProjectUsers')
  // Owners can not leave their project; admins who are not members have nothing to leave.
  const canLeave = role !== '' && role !== 'owner'

  return (
    <>
      <PageHeader
        title={t('page.title')}
        actions={
          <>
            {canLeave ? (
              <Button startIcon={<ExitToAppIcon />} color="error" onClick={() => setLeaving(true)}>
                {t('leave.button')}
              </Button>
            ) : null}
            {canManage ? (
              <Button
                variant="contained"
                startIcon={<PersonAddIcon />}
                onClick={() => setAdding(true)}
              >
                {t('add.button')}
              </Button>
            ) : null}
          </>
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={team.error ?? update.error} />
        {team.data ? (
          <TeamTable
            members={team.data}
            canManage={canManage}
            pendingUserId={update.isPending ? (update.variables?.userId ?? null) : null}
            onChangeRole={(member, nextRole) =>
              update.mutate(
                { userId: member.id, role: nextRole },
                { onSuccess: () => showMessage(t('messages.roleChanged', { name: member.name })) },
              )
            }
            onRemove={setRemoving}
          />
        ) : team.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
      <AddMemberDialog
        open={adding}
        projectId={project.id}
        memberIds={(team.data ?? []).map((member) => member.id)}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('remove.title')}
        text={t('remove.text', { name: removing?.name ?? '' })}
        confirmLabel={t('remove.confirm')}
        pending={remove.isPending}
        error={remove.error}
        onClose={() => {
          remove.reset()
          setRemoving(null)
        }}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(removing.id, {
            onSuccess: () => {
              showMessage(t('messages.removed', { name: removing.name }))
              setRemoving(null)
            },
          })
        }}
      />
      <ConfirmDialog
        open={leaving}
        title={t('leave.title')}
        text={t('leave.text', { name: project.name })}
        confirmLabel={t('leave.confirm')}
        pending={leave.isPending}
        error={leave.error}
        onClose={() => {
          leave.reset()
          setLeaving(false)
        }}
        onConfirm={() =>
          leave.mutate(undefined, {
            onSuccess: () => {
              showMessage(t('messages.left', { name: project.name }))
              const next = projectAfterDelete(projects, project.id)
              storeProjectId(next?.id ?? null)
              void navigate(next ? paths.project.href(next.id) : paths.newProject.href(), {
                replace: true,
              })
            },
          })
        }
      />
    </>
  )
}
