import type { AccessKey, TerraformAlias } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import DataObjectIcon from '@mui/icons-material/DataObject'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { Section } from '../../integrations/components/section'
import { copyText } from '../../integrations/utils/copy-text'
import { useTerraformAliases, useTerraformAliasMutations } from '../api/aliases'
import { backendConfig } from '../utils/backend-config'
import { AliasDialog } from './alias-dialog'

type DialogState =
  | { kind: 'new' }
  | { kind: 'edit'; alias: TerraformAlias }
  | { kind: 'delete'; alias: TerraformAlias }
  | null

/**
 * The addresses at which Terraform and OpenTofu reach a workspace's state from outside the
 * server's own tasks, each guarded by a login-with-password key; managers add, re-key and
 * delete them.
 */
export function BackendAliases({
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
  const { showMessage } = useSnackbar()
  const aliases = useTerraformAliases(projectId, inventoryId)
  const mutations = useTerraformAliasMutations(projectId, inventoryId)
  const [dialog, setDialog] = useState<DialogState>(null)
  const keyName = (id: number | null) =>
    keys.find((key) => key.id === id)?.name ?? t('terraform.backend.noKey')

  const close = () => {
    setDialog(null)
    mutations.create.reset()
    mutations.update.reset()
    mutations.remove.reset()
  }

  const copy = (text: string, done: string) => {
    copyText(text).then(
      () => showMessage(done),
      (error: unknown) =>
        showMessage(t('terraform.backend.copyFailed', { message: getErrorText(error) }), 'error'),
    )
  }

  const save = (keyId: number) => {
    if (dialog?.kind === 'edit') {
      mutations.update.mutate(
        { alias: dialog.alias, authKeyId: keyId },
        {
          onSuccess: () => {
            showMessage(t('terraform.backend.saved'))
            close()
          },
        },
      )
      return
    }
    mutations.create.mutate(keyId, {
      onSuccess: () => {
        showMessage(t('terraform.backend.created'))
        close()
      },
    })
  }

  return (
    <Section
      title={t('terraform.backend.title')}
      text={t('terraform.backend.text')}
      actions={
        canManage ? (
          <Button startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
            {t('terraform.backend.add')}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={aliases.error} />
      {aliases.data ? (
        aliases.data.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 1 }}>
            {t('terraform.backend.empty')}
          </Typography>
        ) : (
          <List dense disablePadding aria-label={t('terraform.backend.title')}>
            {aliases.data.map((alias) => (
              <ListItem
                key={alias.id}
                disableGutters
                sx={{ gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
              >
                <Box sx={{ flexGrow: 1, minWidth: 0, flexBasis: { xs: '100%', sm: 'auto' } }}>
                  <Box
                    component="code"
                    sx={{ display: 'block', wordBreak: 'break-all', fontSize: 13 }}
                  >
                    {alias.url}
                  </Box>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t('terraform.backend.key')}: {keyName(alias.auth_key_id)}
                  </Typography>
                </Box>
                <Tooltip title={t('terraform.backend.copy')}>
                  <IconButton
                    aria-label={t('terraform.backend.copyUrl', { url: alias.url })}
                    onClick={() => copy(alias.url, t('terraform.backend.copied'))}
                  >
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('terraform.backend.copyConfig')}>
                  <IconButton
                    aria-label={t('terraform.backend.copyConfigOf', { url: alias.url })}
                    onClick={() =>
                      copy(backendConfig(alias.url), t('terraform.backend.configCopied'))
                    }
                  >
                    <DataObjectIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                {canManage ? (
                  <>
                    <Tooltip title={t('terraform.backend.edit')}>
                      <IconButton
                        aria-label={t('terraform.backend.editUrl', { url: alias.url })}
                        onClick={() => setDialog({ kind: 'edit', alias })}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('terraform.backend.delete')}>
                      <IconButton
                        aria-label={t('terraform.backend.deleteUrl', { url: alias.url })}
                        onClick={() => setDialog({ kind: 'delete', alias })}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                ) : null}
              </ListItem>
            ))}
          </List>
        )
      ) : aliases.isPending ? (
        <LoadingState />
      ) : null}
      {dialog?.kind === 'new' || dialog?.kind === 'edit' ? (
        <AliasDialog
          open
          editing={dialog.kind === 'edit'}
          initialKeyId={dialog.kind === 'edit' ? dialog.alias.auth_key_id : null}
          keys={keys}
          pending={mutations.create.isPending || mutations.update.isPending}
          error={mutations.create.error ?? mutations.update.error}
          onSubmit={save}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          open
          title={t('terraform.backend.deleteTitle')}
          text={
            // A URL has no spaces to wrap at; without this the dialog would scroll sideways.
            <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
              {t('terraform.backend.deleteText', { url: dialog.alias.url })}
            </Box>
          }
          pending={mutations.remove.isPending}
          error={mutations.remove.error}
          onClose={close}
          onConfirm={() =>
            mutations.remove.mutate(dialog.alias, {
              onSuccess: () => {
                showMessage(t('terraform.backend.deleted'))
                close()
              },
            })
          }
        />
      ) : null}
    </Section>
  )
}
