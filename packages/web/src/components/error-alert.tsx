import Alert from '@mui/material/Alert'
import { getErrorText } from '../lib/error-text'

/** The red alert a form shows for a failed request; renders nothing without an error. */
export function ErrorAlert({ error, text }: { error?: unknown; text?: string | null }) {
  const message = text ?? (error ? getErrorText(error) : null)
  if (!message) return null
  return (
    <Alert severity="error" sx={{ mb: 2 }} role="alert">
      {message}
    </Alert>
  )
}
