import { createContext, useContext } from 'react'

export type SnackbarSeverity = 'success' | 'info' | 'warning' | 'error'

export interface SnackbarApi {
  showMessage: (message: string, severity?: SnackbarSeverity) => void
}

export const SnackbarContext = createContext<SnackbarApi>({ showMessage: () => undefined })

export function useSnackbar(): SnackbarApi {
  return useContext(SnackbarContext)
}
