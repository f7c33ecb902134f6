import type { TerraformResourceChange, TerraformState } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useFormat } from '../../../lib/format'
import { useTerraformStateDiff } from '../api/states'

const DIFF_DIALOG_WIDTH = 720

/**
 * What changed between two state versions: resources added, changed (with the attributes
 * that differ) and removed, by address, and the outputs that differ. Both versions can be
 * chosen again in the dialog.
 */
export function StateDiffDialog({
  projectId,
  inventoryId,
  versions,
  initialFrom,
  initialTo,
  onClose,
}: {
  projectId: number
  inventoryId: number
  /** The versions to choose from, newest first. */
  versions: readonly TerraformState[]
  initialFrom: number | null
  initialTo: number | null
  onClose: () => void
}) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const format = useFormat()
  const [from, setFrom] = useState(initialFrom)
  const [to, setTo] = useState(initialTo)
  const diff = useTerraformStateDiff(projectId, inventoryId, from, to)
  const data = diff.data
  const same = from !== null && from === to
  const nothing =
    data !== undefined &&
    data.added.length + data.changed.length + data.removed.length + data.outputs.length === 0

  const choice = (label: string, value: number | null, onChange: (id: number) => void) => (
    <TextField
      select
      fullWidth
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      {versions.map((version) => (
        <MenuItem key={version.id} value={version.id}>
          {t('terraform.diff.version', {
            id: version.id,
            created: format.dateTime(version.created),
          })}
        </MenuItem>
      ))}
    </TextField>
  )

  return (
    <AppDialog
      open
      onClose={onClose}
      width={DIFF_DIALOG_WIDTH}
      title={t('terraform.diff.title')}
      actions={<Button onClick={onClose}>{tc('actions.close')}</Button>}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {choice(t('terraform.diff.from'), from, setFrom)}
          {choice(t('terraform.diff.to'), to, setTo)}
        </Stack>
        {same ? (
          <Typography sx={{ color: 'text.secondary' }}>{t('terraform.diff.same')}</Typography>
        ) : null}
        <ErrorAlert error={diff.error} />
        {diff.isFetching && !data ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={tc('states.loading')} />
          </Box>
        ) : null}
        {data && !same ? (
          nothing ? (
            <Typography sx={{ color: 'text.secondary' }}>{t('terraform.diff.empty')}</Typography>
          ) : (
            <>
              <Changes title={t('terraform.diff.added')} items={data.added} />
              <Changes title={t('terraform.diff.changed')} items={data.changed} showAttributes />
              <Changes title={t('terraform.diff.removed')} items={data.removed} />
              {data.outputs.length > 0 ? (
                <Group title={t('terraform.diff.outputs')}>
                  {data.outputs.map((name) => (
                    <ListItem key={name} disableGutters sx={{ py: 0 }}>
                      <ListItemText primary={<code>{name}</code>} />
                    </ListItem>
                  ))}
                </Group>
              ) : null}
            </>
          )
        ) : null}
      </Stack>
    </AppDialog>
  )
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId()
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle2" component="h3">
        {title}
      </Typography>
      <List dense disablePadding aria-labelledby={headingId}>
        {children}
      </List>
    </Box>
  )
}

function Changes({
  title,
  items,
  showAttributes = false,
}: {
  title: string
  items: readonly TerraformResourceChange[]
  showAttributes?: boolean
}) {
  const { t } = useTranslation('templates')
  if (items.length === 0) return null
  return (
    <Group title={`${title} (${items.length})`}>
      {items.map((item) => (
        <ListItem key={item.address} disableGutters sx={{ py: 0 }}>
          <ListItemText
            primary={
              <Box component="code" sx={{ overflowWrap: 'anywhere' }}>
                {item.address}
              </Box>
            }
            secondary={
              showAttributes && item.attributes.length > 0
                ? t('terraform.diff.attributes', { names: item.attributes.join(', ') })
                : null
            }
          />
        </ListItem>
      ))}
    </Group>
  )
}
