import type { ProjectBackupInput } from '@flagman/contract'
import UploadFileIcon from '@mui/icons-material/UploadFile'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useRestoreProject, type RestoreResult } from '../api/restore-project'
import { readBackupFile } from '../utils/read-backup-file'

export interface RestoreProjectPanelProps {
  onRestored: (projectId: number) => void
}

/** Restore a project from a backup file: choose the file, name the new project, restore. */
export function RestoreProjectPanel({ onRestored }: RestoreProjectPanelProps) {
  const { t } = useTranslation('projects')
  const fileInputId = useId()
  const [name, setName] = useState('')
  const [backup, setBackup] = useState<ProjectBackupInput | null>(null)
  const [fileName, setFileName] = useState('')
  const [fileError, setFileError] = useState<string | null>(null)
  const [touched, setTouched] = useState(false)
  const [result, setResult] = useState<RestoreResult | null>(null)
  const restore = useRestoreProject()

  const nameError = touched && name.trim() === '' ? t('restore.nameRequired') : null
  const missingFile = touched && !backup && !fileError ? t('restore.fileRequired') : null

  const chooseFile = async (file: File | undefined) => {
    setBackup(null)
    setFileError(null)
    setFileName(file?.name ?? '')
    if (!file) return
    const read = await readBackupFile(file)
    if (!read.ok) {
      setFileError(
        read.reason === 'meta'
          ? t('restore.noMeta')
          : t('restore.notJson', { reason: read.reason }),
      )
      return
    }
    setBackup(read.backup)
    if (name.trim() === '') setName(read.name)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (!backup || name.trim() === '') return
    const meta = typeof backup.meta === 'object' && backup.meta !== null ? backup.meta : {}
    restore.mutate({ ...backup, meta: { ...meta, name: name.trim() } }, { onSuccess: setResult })
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560 }}>
      <form noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <ErrorAlert error={restore.error} />
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('restore.intro')}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button
              component="label"
              variant="outlined"
              startIcon={<UploadFileIcon />}
              htmlFor={fileInputId}
            >
              {t('restore.chooseFile')}
              <input
                id={fileInputId}
                type="file"
                accept=".json,application/json"
                hidden
                aria-label={t('restore.chooseFile')}
                onChange={(event) => void chooseFile(event.target.files?.[0])}
              />
            </Button>
            <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
              {fileName || t('restore.noFile')}
            </Typography>
          </Stack>
          {fileError || missingFile ? (
            <Typography variant="body2" role="alert" sx={{ color: 'error.main' }}>
              {fileError ?? missingFile}
            </Typography>
          ) : null}
          <TextField
            label={t('form.name')}
            value={name}
            required
            fullWidth
            onChange={(event) => setName(event.target.value)}
            onBlur={() => setTouched(true)}
            error={Boolean(nameError)}
            helperText={nameError}
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" loading={restore.isPending}>
              {t('restore.submit')}
            </Button>
          </Stack>
        </Stack>
      </form>
      <AppDialog
        open={result !== null}
        title={t('restore.resultTitle')}
        onClose={() => result && onRestored(result.projectId)}
        actions={
          <Button variant="contained" onClick={() => result && onRestored(result.projectId)}>
            {t('restore.open')}
          </Button>
        }
      >
        <Typography>{t('restore.success')}</Typography>
        {result && result.emptyKeys > 0 ? (
          <Typography sx={{ mt: 1 }}>
            {t('restore.emptyKeys', { count: result.emptyKeys })}
          </Typography>
        ) : null}
        {result && result.unmapped.length > 0 ? <UnmappedItems items={result.unmapped} /> : null}
      </AppDialog>
    </Paper>
  )
}

/** What the server could not map from the file: a short list that scrolls when long. */
function UnmappedItems({ items }: { items: RestoreResult['unmapped'] }) {
  const { t } = useTranslation('projects')
  const headingId = useId()
  return (
    <>
      <Typography id={headingId} sx={{ mt: 1 }}>
        {t('restore.unmapped', { count: items.length })}
      </Typography>
      <List
        dense
        aria-labelledby={headingId}
        // A long list scrolls; keyboard users reach it with Tab and scroll it with the arrows.
        tabIndex={0}
        sx={{ maxHeight: 240, overflowY: 'auto', border: 1, borderColor: 'divider', mt: 1 }}
      >
        {items.map((item, index) => (
          <ListItem key={`${item.path}-${index}`}>
            <ListItemText
              primary={item.path}
              secondary={item.reason}
              slotProps={{
                primary: { sx: { fontFamily: 'monospace', wordBreak: 'break-all' } },
              }}
            />
          </ListItem>
        ))}
      </List>
    </>
  )
}
