import { type AccessKey, TERRAFORM_BACKEND_UNAVAILABLE } from '@flagman/contract'
import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useSystemInfo } from '../../system/api/get-info'
import { useTerraformLock } from '../api/lock'
import { terraformKeys } from '../api/terraform.query-keys'
import { BackendAliases } from './backend-aliases'
import { LockStatus } from './lock-status'
import { StateVersions } from './state-versions'

/**
 * The HTTP backend of one Terraform/OpenTofu workspace: the aliases that reach it from
 * outside, the state lock and the stored state versions.
 */
export function WorkspaceBackend({
  projectId,
  inventoryId,
  keys,
  canManage,
}: {
  projectId: number
  inventoryId: number
  keys: readonly AccessKey[]
  canManage: boolean
}) {
  const { t } = useTranslation('templates')
  const info = useSystemInfo()
  const queryClient = useQueryClient()
  const lock = useTerraformLock(projectId, inventoryId)
  const locked = lock.data?.locked
  const wasLocked = useRef(locked)

  // A released lock usually means a run has just written a new version: list them again.
  useEffect(() => {
    if (wasLocked.current === true && locked === false) {
      void queryClient.invalidateQueries({ queryKey: terraformKeys.states(projectId, inventoryId) })
    }
    wasLocked.current = locked
  }, [locked, queryClient, projectId, inventoryId])

  // Only a server that says it has no backend gets the notice; while its answer loads, the
  // panel is shown as usual.
  if (info.data?.premium_features.terraform_backend === false) {
    return (
      <Alert severity="info">
        {t('terraform.unavailable', { defaultValue: TERRAFORM_BACKEND_UNAVAILABLE })}
      </Alert>
    )
  }
  return (
    <Stack spacing={2}>
      <BackendAliases
        projectId={projectId}
        inventoryId={inventoryId}
        keys={keys}
        canManage={canManage}
      />
      <LockStatus
        projectId={projectId}
        inventoryId={inventoryId}
        lock={lock.data}
        error={lock.error}
        canManage={canManage}
      />
      <StateVersions
        projectId={projectId}
        inventoryId={inventoryId}
        locked={locked ?? false}
        canManage={canManage}
      />
    </Stack>
  )
}
