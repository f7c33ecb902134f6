import type { Inventory, Template } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import CheckIcon from '@mui/icons-material/Check'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { WorkspaceBackend } from '../../terraform/components/workspace-backend'
import { useTemplateResources, useTemplateWorkspaces } from '../api/resources'
import { ownedBy, useWorkspaceMutations, workspaceType } from '../api/workspaces'
import { templateFormSchema, templateToFormValues, toTemplateBody } from '../utils/template-values'
import { AttachWorkspaceDialog, WorkspaceDialog, type WorkspaceValues } from './workspace-dialogs'

type DialogState = 'new' | 'edit' | 'attach' | 'delete' | null

/**
 * The workspaces of a Terraform or OpenTofu template: one button each (the default one, which
 * tasks use, has a check mark), and for people who manage resources: new, attach, make default,
 * detach, delete and edit. Under them, the selected workspace's HTTP backend: aliases, state
 * lock and stored state versions.
 */
export function TemplateWorkspaces({
  projectId,
  template,
  canManage,
}: {
  projectId: number
  template: Template
  canManage: boolean
}) {
  const { t } = useTranslation('templates')
  const { showMessage } = useSnackbar()
  const workspaces = useTemplateWorkspaces(projectId, template.id, true)
  const resources = useTemplateResources(projectId)
  const mutations = useWorkspaceMutations(projectId)
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const [menu, setMenu] = useState<HTMLElement | null>(null)
  const [dialog, setDialog] = useState<DialogState>(null)

  if (workspaces.isPending) return <LoadingState />
  if (workspaces.error) return <ErrorAlert error={workspaces.error} />

  const list = workspaces.data
  const selected =
    list.find((item) => item.id === selectedId) ??
    list.find((item) => item.id === template.inventory_id) ??
    list[0] ??
    null
  const isDefault = selected !== null && selected.id === template.inventory_id
  const type = workspaceType(template.app)
  const free = resources.inventories.filter(
    (item) => item.type === type && item.template_id === null,
  )
  const keyName = (id: number | null) => resources.keys.find((key) => key.id === id)?.name ?? '—'
  const anyError =
    mutations.create.error ??
    mutations.update.error ??
    mutations.remove.error ??
    mutations.makeDefault.error
  const closeDialog = () => {
    setDialog(null)
    mutations.create.reset()
    mutations.update.reset()
    mutations.remove.reset()
  }

  const saveWorkspace = (values: WorkspaceValues) => {
    if (dialog === 'edit' && selected) {
      mutations.update.mutate(
        { ...ownedBy(selected, template.id), inventory: values.name, ssh_key_id: values.keyId },
        {
          onSuccess: () => {
            showMessage(t('workspaces.saved', { name: values.name }))
            closeDialog()
          },
        },
      )
      return
    }
    mutations.create.mutate(
      {
        // The inventory's name tells which template the workspace belongs to.
        name: `${template.name} ${values.name}`,
        project_id: projectId,
        type: type as 'terraform-workspace',
        inventory: values.name,
        ssh_key_id: values.keyId,
        template_id: template.id,
      },
      {
        onSuccess: (created) => {
          setSelectedId(created.id)
          showMessage(t('workspaces.created', { name: values.name }))
          closeDialog()
        },
      },
    )
  }

  const attach = (workspace: Inventory) =>
    mutations.update.mutate(ownedBy(workspace, template.id), {
      onSuccess: () => {
        setSelectedId(workspace.id)
        showMessage(t('workspaces.attached', { name: workspace.inventory || workspace.name }))
        closeDialog()
      },
    })

  const detach = (workspace: Inventory) =>
    mutations.update.mutate(ownedBy(workspace, null), {
      onSuccess: () => {
        setSelectedId(null)
        showMessage(t('workspaces.detached', { name: workspace.inventory || workspace.name }))
      },
    })

  const makeDefault = (workspace: Inventory) => {
    const parsed = templateFormSchema(t).safeParse(templateToFormValues(template, template.app))
    if (!parsed.success) {
      showMessage(parsed.error.issues[0]?.message ?? t('workspaces.cannotSave'))
      return
    }
    mutations.makeDefault.mutate(
      { ...toTemplateBody(parsed.data, projectId), id: template.id, inventory_id: workspace.id },
      {
        onSuccess: () =>
          showMessage(t('workspaces.madeDefault', { name: workspace.inventory || workspace.name })),
      },
    )
  }

  return (
    <Stack spacing={2}>
      {dialog === null ? <ErrorAlert error={anyError} /> : null}
      <Paper
        variant="outlined"
        component="section"
        aria-label={t('details.tabs.state')}
        sx={{ p: 2 }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {list.length === 0 ? (
            <Typography color="text.secondary">{t('workspaces.empty')}</Typography>
          ) : (
            <ToggleButtonGroup
              exclusive
              size="small"
              value={selected?.id ?? null}
              onChange={(_, value: number | null) => value !== null && setSelectedId(value)}
              aria-label={t('details.tabs.state')}
              sx={{ flexWrap: 'wrap' }}
            >
              {list.map((workspace) => (
                <ToggleButton key={workspace.id} value={workspace.id} sx={{ gap: 0.5 }}>
                  {workspace.id === template.inventory_id ? (
                    <CheckIcon fontSize="small" titleAccess={t('workspaces.default')} />
                  ) : null}
                  {workspace.inventory || workspace.name}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          )}
          {canManage ? (
            <>
              <Tooltip title={t('workspaces.add')}>
                <IconButton
                  aria-label={t('workspaces.add')}
                  onClick={(event) => setMenu(event.currentTarget)}
                >
                  <AddIcon />
                </IconButton>
              </Tooltip>
              <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
                <MenuItem
                  onClick={() => {
                    setMenu(null)
                    setDialog('new')
                  }}
                >
                  {t('workspaces.new')}
                </MenuItem>
                <MenuItem
                  onClick={() => {
                    setMenu(null)
                    setDialog('attach')
                  }}
                >
                  {t('workspaces.attachExisting')}
                </MenuItem>
              </Menu>
            </>
          ) : null}
        </Stack>
        {selected ? (
          <Box sx={{ mt: 2 }}>
            <Typography variant="body2">
              {t('workspaces.name')}: {selected.inventory || selected.name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('workspaces.key')}: {keyName(selected.ssh_key_id)}
            </Typography>
            {canManage ? (
              <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
                <Button
                  disabled={isDefault || mutations.makeDefault.isPending}
                  onClick={() => makeDefault(selected)}
                >
                  {t('workspaces.makeDefault')}
                </Button>
                <Button
                  disabled={isDefault || mutations.update.isPending}
                  onClick={() => detach(selected)}
                >
                  {t('workspaces.detach')}
                </Button>
                <Button color="error" disabled={isDefault} onClick={() => setDialog('delete')}>
                  {t('workspaces.delete')}
                </Button>
                <Button onClick={() => setDialog('edit')}>{t('workspaces.edit')}</Button>
              </Stack>
            ) : null}
          </Box>
        ) : null}
      </Paper>
      {list.length === 0 && !canManage ? <EmptyState title={t('workspaces.empty')} /> : null}
      {selected ? (
        <WorkspaceBackend
          // Another workspace starts with its own expanded rows, pages and dialogs.
          key={selected.id}
          projectId={projectId}
          inventoryId={selected.id}
          keys={resources.keys}
          canManage={canManage}
        />
      ) : null}
      {dialog === 'new' || dialog === 'edit' ? (
        <WorkspaceDialog
          open
          initial={
            dialog === 'edit' && selected
              ? { name: selected.inventory, keyId: selected.ssh_key_id }
              : null
          }
          keys={resources.keys}
          pending={mutations.create.isPending || mutations.update.isPending}
          error={mutations.create.error ?? mutations.update.error}
          onSubmit={saveWorkspace}
          onClose={closeDialog}
        />
      ) : null}
      {dialog === 'attach' ? (
        <AttachWorkspaceDialog
          open
          choices={free}
          pending={mutations.update.isPending}
          error={mutations.update.error}
          onSubmit={attach}
          onClose={closeDialog}
        />
      ) : null}
      {dialog === 'delete' && selected ? (
        <ConfirmDialog
          open
          title={t('workspaces.deleteTitle')}
          text={t('workspaces.deleteText', { name: selected.inventory || selected.name })}
          pending={mutations.remove.isPending}
          error={mutations.remove.error}
          onConfirm={() =>
            mutations.remove.mutate(selected, {
              onSuccess: () => {
                setSelectedId(null)
                showMessage(t('workspaces.deleted', { name: selected.inventory || selected.name }))
                closeDialog()
              },
            })
          }
          onClose={closeDialog}
        />
      ) : null}
    </Stack>
  )
}
