import type { IntegrationAlias } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import DeleteIcon from '@mui/icons-material/Delete'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { useAliases, useCreateAlias, useDeleteAlias } from '../api/aliases'
import { copyText } from '../utils/copy-text'
import { Section } from './section'

export interface AliasesSectionProps {
  projectId: number
  /** Whose aliases: one integration's, or with null the project's. */
  integrationId: number | null
  title: string
  text?: ReactNode
  canManage: boolean
}

/** The alias URLs webhooks are sent to, with copy buttons; managers add and delete them. */
export function AliasesSection({
  projectId,
  integrationId,
  title,
  text,
  canManage,
}: AliasesSectionProps) {
  const { t } = useTranslation('integrations')
  const { showMessage } = useSnackbar()
  const aliases = useAliases(projectId, integrationId)
  const create = useCreateAlias(projectId, integrationId)
  const remove = useDeleteAlias(projectId, integrationId)
  const [deleting, setDeleting] = useState<IntegrationAlias | null>(null)

  const copy = (alias: IntegrationAlias) => {
    copyText(alias.url).then(
      () => showMessage(t('messages.copied')),
      (error: unknown) =>
        showMessage(t('messages.copyFailed', { message: getErrorText(error) }), 'error'),
    )
  }

  return (
    <Section
      title={title}
      text={text}
      actions={
        canManage ? (
          <Button
            startIcon={<AddIcon />}
            loading={create.isPending}
            onClick={() =>
              create.mutate(undefined, {
                onSuccess: () => showMessage(t('messages.aliasCreated')),
                onError: (error) => showMessage(getErrorText(error), 'error'),
              })
            }
          >
            {t('aliases.add')}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={aliases.error} />
      {aliases.data ? (
        aliases.data.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 1 }}>{t('aliases.empty')}</Typography>
        ) : (
          <List dense disablePadding aria-label={title}>
            {aliases.data.map((alias) => (
              <ListItem key={alias.id} disableGutters sx={{ gap: 1 }}>
                <Box
                  component="code"
                  sx={{
                    flexGrow: 1,
                    minWidth: 0,
                    wordBreak: 'break-all',
                    fontFamily: 'monospace',
                    fontSize: 13,
                  }}
                >
                  {alias.url}
                </Box>
                <Tooltip title={t('aliases.copy')}>
                  <IconButton
                    aria-label={t('aliases.copyUrl', { url: alias.url })}
                    onClick={() => copy(alias)}
                  >
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                {canManage ? (
                  <Tooltip title={t('aliases.delete')}>
                    <IconButton
                      aria-label={t('aliases.deleteUrl', { url: alias.url })}
                      onClick={() => setDeleting(alias)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
              </ListItem>
            ))}
          </List>
        )
      ) : aliases.isPending ? (
        <LoadingState />
      ) : null}
      {canManage ? (
        <ConfirmDialog
          open={deleting !== null}
          title={t('aliases.deleteTitle')}
          text={
            deleting ? (
              // A URL has no spaces to wrap at; without this the dialog would scroll sideways.
              <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                {t('aliases.deleteText', { url: deleting.url })}
              </Box>
            ) : (
              ''
            )
          }
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => {
            if (!deleting) return
            remove.mutate(deleting, {
              onSuccess: () => {
                showMessage(t('messages.aliasDeleted'))
                setDeleting(null)
              },
              onError: (error) => {
                showMessage(getErrorText(error), 'error')
                setDeleting(null)
              },
            })
          }}
        />
      ) : null}
    </Section>
  )
}
