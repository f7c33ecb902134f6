import type { TerraformLockStatus } from '@flagman/contract'
import LockIcon from '@mui/icons-material/Lock'
import LockOpenIcon from '@mui/icons-material/LockOpen'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useFormat } from '../../../lib/format'
import { Section } from '../../integrations/components/section'
import { taskSearch } from '../../tasks/components/task-log-host'
import { useForceUnlock } from '../api/lock'

/**
 * Whether the workspace's state is locked and who holds the lock, as Terraform described
 * itself when it took it; managers can remove a lock left behind, as `force-unlock` does.
 */
export function LockStatus({
  projectId,
  inventoryId,
  lock,
  error,
  canManage,
}: {
  projectId: number
  inventoryId: number
  /** Undefined while it loads. */
  lock: TerraformLockStatus | undefined
  error: unknown
  canManage: boolean
}) {
  const { t } = useTranslation('templates')
  const format = useFormat()
  const { showMessage } = useSnackbar()
  const unlock = useForceUnlock(projectId, inventoryId)
  const [confirming, setConfirming] = useState(false)
  const info = lock?.info ?? null

  return (
    <Section
      title={t('terraform.lock.title')}
      actions={
        canManage && lock?.locked ? (
          <Button variant="outlined" onClick={() => setConfirming(true)}>
            {t('terraform.lock.forceUnlock')}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={error} />
      {lock ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          {lock.locked ? (
            <LockIcon color="warning" aria-hidden />
          ) : (
            <LockOpenIcon color="success" aria-hidden />
          )}
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>
              {lock.locked ? t('terraform.lock.locked') : t('terraform.lock.unlocked')}
            </Typography>
            {lock.locked ? (
              <>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {t('terraform.lock.heldBy', {
                    who: info?.Who || t('terraform.lock.unknownHolder'),
                  })}
                  {lock.task_id !== null ? (
                    <>
                      {' · '}
                      <Link
                        component={RouterLink}
                        to={{ search: taskSearch(lock.task_id) }}
                        aria-label={t('terraform.states.openTask', { id: lock.task_id })}
                      >
                        {t('terraform.states.task', { id: lock.task_id })}
                      </Link>
                    </>
                  ) : null}
                </Typography>
                {info?.Operation ? (
                  <Typography variant="body2">
                    {t('terraform.lock.operation', { operation: info.Operation })}
                  </Typography>
                ) : null}
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('terraform.lock.since', { time: format.dateTime(lock.since) })}
                </Typography>
                {info?.ID ? (
                  <Typography
                    variant="body2"
                    sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
                  >
                    {t('terraform.lock.id', { id: info.ID })}
                  </Typography>
                ) : null}
              </>
            ) : null}
          </Box>
        </Box>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          open
          title={t('terraform.lock.forceTitle')}
          text={t('terraform.lock.forceText')}
          confirmLabel={t('terraform.lock.forceUnlock')}
          pending={unlock.isPending}
          error={unlock.error}
          onClose={() => {
            setConfirming(false)
            unlock.reset()
          }}
          onConfirm={() =>
            unlock.mutate(undefined, {
              onSuccess: () => {
                showMessage(t('terraform.lock.unlockedMessage'))
                setConfirming(false)
              },
            })
          }
        />
      ) : null}
    </Section>
  )
}
