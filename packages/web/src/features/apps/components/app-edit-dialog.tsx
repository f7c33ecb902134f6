import { type App, AppId } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSaveApp } from '../api/apps'

interface Values {
  id: string
  title: string
  icon: string
  color: string
  priority: string
  path: string
  args: string[]
}

function toValues(app: App | null): Values {
  return {
    id: app?.id ?? '',
    title: app?.title ?? '',
    icon: app?.icon ?? '',
    color: app?.color ?? '',
    priority: String(app?.priority ?? 0),
    path: app?.path ?? '',
    args: app?.args ?? [],
  }
}

function AppForm({
  id,
  app,
  onSubmit,
}: {
  id: string
  app: App | null
  onSubmit: (values: Values) => void
}) {
  const { t } = useTranslation('apps')
  const [values, setValues] = useState<Values>(() => toValues(app))
  const [submitted, setSubmitted] = useState(false)
  const set = (patch: Partial<Values>) => setValues((current) => ({ ...current, ...patch }))
  const idError =
    app !== null
      ? null
      : values.id.trim() === ''
        ? t('form.idRequired')
        : AppId.safeParse(values.id.trim()).success
          ? null
          : t('form.idInvalid')
  const priorityError = /^-?\d+$/.test(values.priority.trim()) ? null : t('form.priorityInvalid')

  return (
    <form
      id={id}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        setSubmitted(true)
        if (idError || priorityError) return
        onSubmit(values)
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t('form.id')}
          required
          disabled={app !== null}
          autoFocus={app === null}
          value={values.id}
          onChange={(event) => set({ id: event.target.value })}
          error={submitted && Boolean(idError)}
          helperText={submitted && idError ? idError : t('form.idHelp')}
        />
        <TextField
          label={t('form.title')}
          autoFocus={app !== null}
          value={values.title}
          onChange={(event) => set({ title: event.target.value })}
        />
        <Stack direction="row" spacing={2}>
          <TextField
            label={t('form.icon')}
            value={values.icon}
            onChange={(event) => set({ icon: event.target.value })}
            fullWidth
          />
          <TextField
            label={t('form.color')}
            value={values.color}
            onChange={(event) => set({ color: event.target.value })}
            fullWidth
          />
        </Stack>
        <TextField
          label={t('form.priority')}
          value={values.priority}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          onChange={(event) => set({ priority: event.target.value })}
          error={submitted && Boolean(priorityError)}
          helperText={submitted ? priorityError : undefined}
        />
        <TextField
          label={t('form.path')}
          value={values.path}
          helperText={t('form.pathHelp')}
          onChange={(event) => set({ path: event.target.value })}
        />
        <Typography variant="subtitle2" component="h3">
          {t('form.args')}
        </Typography>
        {values.args.map((arg, index) => (
          <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              size="small"
              fullWidth
              label={t('form.arg', { index: index + 1 })}
              value={arg}
              onChange={(event) =>
                set({
                  args: values.args.map((item, i) => (i === index ? event.target.value : item)),
                })
              }
            />
            <IconButton
              aria-label={t('form.removeArg', { index: index + 1 })}
              onClick={() => set({ args: values.args.filter((_, i) => i !== index) })}
            >
              <DeleteIcon />
            </IconButton>
          </Stack>
        ))}
        <div>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => set({ args: [...values.args, ''] })}
          >
            {t('form.addArg')}
          </Button>
        </div>
      </Stack>
    </form>
  )
}

export interface AppEditDialogProps {
  open: boolean
  /** The app to edit; `null` adds a custom app. */
  app: App | null
  onClose: () => void
}

export function AppEditDialog({ open, app, onClose }: AppEditDialogProps) {
  const { t } = useTranslation('apps')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const save = useSaveApp()
  const close = () => {
    save.reset()
    onClose()
  }
  return (
    <AppDialog
      open={open}
      onClose={close}
      width={520}
      title={app ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={save.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={save.isPending}>
            {app ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={save.error} />
      {open ? (
        <AppForm
          key={app?.id ?? 'new'}
          id={formId}
          app={app}
          onSubmit={(values) => {
            const id = values.id.trim()
            save.mutate(
              {
                id,
                body: {
                  title: values.title,
                  icon: values.icon,
                  color: values.color,
                  // Not edited here; sent back so that saving keeps it.
                  dark_color: app?.dark_color ?? '',
                  priority: Number(values.priority.trim()),
                  path: values.path,
                  args: values.args.map((arg) => arg.trim()).filter((arg) => arg !== ''),
                  // A saved app is stored whole: an edit keeps its state, a new app starts off.
                  active: app ? app.active : false,
                },
              },
              {
                onSuccess: () => {
                  showMessage(t('messages.saved', { name: values.title || id }))
                  close()
                },
              },
            )
          }}
        />
      ) : null}
    </AppDialog>
  )
}
