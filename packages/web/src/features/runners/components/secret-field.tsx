import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import IconButton from '@mui/material/IconButton'
import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'

/** A read-only, monospaced text with a button that copies it (or a longer text behind it). */
export function SecretField({
  label,
  value,
  copyLabel,
  onCopy,
  helperText,
  multiline = false,
}: {
  label: string
  value: string
  copyLabel: string
  onCopy: () => void
  helperText?: string
  multiline?: boolean
}) {
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      size="small"
      multiline={multiline}
      helperText={helperText}
      slotProps={{
        htmlInput: {
          readOnly: true,
          spellCheck: false,
          style: { fontFamily: 'monospace', wordBreak: 'break-all' },
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton edge="end" onClick={onCopy} aria-label={copyLabel}>
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  )
}
