import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'

export interface ArgsEditorProps {
  value: readonly string[]
  onChange: (value: string[]) => void
  /** Messages by argument index. */
  errors?: readonly (string | undefined)[]
}

/** The CLI arguments of a template, one field per argument; saved as a JSON array. */
export function ArgsEditor({ value, onChange, errors = [] }: ArgsEditorProps) {
  const { t } = useTranslation('templates')
  return (
    <Stack spacing={1}>
      {value.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('args.empty')}
        </Typography>
      ) : null}
      {value.map((arg, index) => (
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            fullWidth
            label={t('args.arg', { index: index + 1 })}
            value={arg}
            error={Boolean(errors[index])}
            helperText={errors[index]}
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
            onChange={(event) =>
              onChange(value.map((item, i) => (i === index ? event.target.value : item)))
            }
          />
          <IconButton
            aria-label={t('args.remove', { index: index + 1 })}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          >
            <DeleteIcon />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...value, ''])}>
          {t('args.add')}
        </Button>
      </div>
    </Stack>
  )
}
