import { type AccessKey, VAULT_TYPES } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormHelperText from '@mui/material/FormHelperText'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { type VaultRow, vaultRowProblem } from '../utils/template-values'

export interface VaultsEditorProps {
  value: readonly VaultRow[]
  onChange: (value: VaultRow[]) => void
  /** Keys of the project; password vaults use a login with password key. */
  keys: readonly AccessKey[]
  /** Shows the rules a row breaks (after the first save attempt). */
  showErrors: boolean
  error?: string
}

/** The Ansible vaults of a template: a password key or a client script each. */
export function VaultsEditor({ value, onChange, keys, showErrors, error }: VaultsEditorProps) {
  const { t } = useTranslation('templates')
  const passwordKeys = keys.filter((key) => key.type === 'login_password')
  const update = (index: number, patch: Partial<VaultRow>) =>
    onChange(value.map((row, i) => (i === index ? { ...row, ...patch } : row)))

  return (
    <Stack spacing={1}>
      {value.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('vaults.empty')}
        </Typography>
      ) : null}
      {value.map((row, index) => {
        const problem = vaultRowProblem(t, row)
        const scriptBad = row.type === 'script' && problem !== null
        const keyBad = row.type === 'password' && problem !== null
        return (
          <Paper key={index} variant="outlined" sx={{ p: 1.5 }}>
            <Box
              sx={{
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1.4fr auto' },
                alignItems: 'start',
              }}
            >
              <TextField
                size="small"
                label={t('vaults.name')}
                helperText={t('vaults.nameHelp')}
                value={row.name}
                onChange={(event) => update(index, { name: event.target.value })}
              />
              <TextField
                size="small"
                select
                required
                label={t('vaults.type')}
                value={row.type}
                onChange={(event) =>
                  update(index, { type: event.target.value as VaultRow['type'] })
                }
              >
                {VAULT_TYPES.map((type) => (
                  <MenuItem key={type} value={type}>
                    {t(`vaults.types.${type}`)}
                  </MenuItem>
                ))}
              </TextField>
              {row.type === 'script' ? (
                <TextField
                  size="small"
                  required
                  label={t('vaults.script')}
                  value={row.script}
                  onChange={(event) => update(index, { script: event.target.value })}
                  error={scriptBad && (showErrors || row.script !== '')}
                  helperText={
                    scriptBad && (showErrors || row.script !== '')
                      ? problem
                      : t('vaults.scriptHelp')
                  }
                />
              ) : (
                <TextField
                  size="small"
                  select
                  required
                  label={t('vaults.key')}
                  value={row.vault_key_id}
                  onChange={(event) => update(index, { vault_key_id: event.target.value })}
                  error={showErrors && keyBad}
                  helperText={showErrors && keyBad ? problem : undefined}
                >
                  {passwordKeys.map((key) => (
                    <MenuItem key={key.id} value={String(key.id)}>
                      {key.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              <IconButton
                aria-label={t('vaults.remove', { index: index + 1 })}
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              >
                <DeleteIcon />
              </IconButton>
            </Box>
          </Paper>
        )
      })}
      {error && showErrors && value.every((row) => vaultRowProblem(t, row) === null) ? (
        <FormHelperText error role="alert">
          {error}
        </FormHelperText>
      ) : null}
      <div>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() =>
            onChange([...value, { name: '', type: 'password', vault_key_id: '', script: '' }])
          }
        >
          {t('vaults.add')}
        </Button>
      </div>
    </Stack>
  )
}
