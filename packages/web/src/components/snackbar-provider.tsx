import Alert from '@mui/material/Alert'
import Snackbar from '@mui/material/Snackbar'
import { type ReactNode, useCallback, useMemo, useState } from 'react'
import { SNACKBAR_TIMEOUT_MS } from '../config/constants'
import { SnackbarContext, type SnackbarSeverity } from '../hooks/use-snackbar'

interface Message {
  key: number
  text: string
  severity: SnackbarSeverity
}

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<Message | null>(null)
  const [open, setOpen] = useState(false)

  const showMessage = useCallback((text: string, severity: SnackbarSeverity = 'success') => {
    setMessage({ key: Date.now(), text, severity })
    setOpen(true)
  }, [])
  const value = useMemo(() => ({ showMessage }), [showMessage])

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Snackbar
        key={message?.key}
        open={open}
        autoHideDuration={SNACKBAR_TIMEOUT_MS}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setOpen(false)
        }}
        // Bottom left, away from the dialog buttons (bottom right of a dialog) it would cover.
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Alert
          severity={message?.severity ?? 'success'}
          variant="filled"
          onClose={() => setOpen(false)}
          sx={{ width: '100%' }}
        >
          {message?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  )
}
