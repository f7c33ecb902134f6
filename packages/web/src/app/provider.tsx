import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useMemo, useState } from 'react'
import { SnackbarProvider } from '../components/snackbar-provider'
import { ColorModeContext } from '../hooks/use-color-mode'
import { readStorage, storageKeys, writeStorage } from '../lib/storage'
import { createAppTheme } from './theme'

export function readDarkMode(): boolean {
  const value = readStorage(storageKeys.darkMode)
  return value === '1' || value === 'true'
}

export function AppProvider({
  queryClient,
  children,
}: {
  queryClient: QueryClient
  children: ReactNode
}) {
  const [darkMode, setDarkModeState] = useState(readDarkMode)
  const colorMode = useMemo(
    () => ({
      darkMode,
      setDarkMode: (dark: boolean) => {
        writeStorage(storageKeys.darkMode, dark ? '1' : null)
        setDarkModeState(dark)
      },
    }),
    [darkMode],
  )
  const theme = useMemo(() => createAppTheme(darkMode), [darkMode])

  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeContext.Provider value={colorMode}>
        <ThemeProvider theme={theme}>
          <CssBaseline enableColorScheme />
          <SnackbarProvider>{children}</SnackbarProvider>
        </ThemeProvider>
      </ColorModeContext.Provider>
    </QueryClientProvider>
  )
}
