import createCache, { type EmotionCache } from '@emotion/cache'
import { CacheProvider } from '@emotion/react'
import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SnackbarProvider } from '../components/snackbar-provider'
import { ColorModeContext } from '../hooks/use-color-mode'
import { FALLBACK_LANGUAGE, matchLanguage } from '../lib/languages'
import { readStorage, storageKeys, writeStorage } from '../lib/storage'
import { createAppTheme } from './theme'

export function readDarkMode(): boolean {
  const value = readStorage(storageKeys.darkMode)
  return value === '1' || value === 'true'
}

/**
 * The nonce the server gave this page for its style elements, from the
 * `<meta property="csp-nonce">` it fills in. Browsers hide the attribute once the page runs
 * under a policy; the element's `nonce` property still holds it.
 */
export function readCspNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')
  return meta?.nonce || meta?.getAttribute('nonce') || undefined
}

let styleCache: EmotionCache | undefined

/**
 * The one style cache of the page. Each `<style>` element the component library writes
 * carries the page's nonce, the only way the policy lets a style element apply.
 */
function pageStyleCache(): EmotionCache {
  styleCache ??= createCache({ key: 'css', nonce: readCspNonce() })
  return styleCache
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
  const { i18n } = useTranslation()
  const language = matchLanguage(i18n.language ?? '') ?? FALLBACK_LANGUAGE
  const theme = useMemo(() => createAppTheme(darkMode, language), [darkMode, language])

  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeContext.Provider value={colorMode}>
        <CacheProvider value={pageStyleCache()}>
          <ThemeProvider theme={theme}>
            <CssBaseline enableColorScheme />
            <SnackbarProvider>{children}</SnackbarProvider>
          </ThemeProvider>
        </CacheProvider>
      </ColorModeContext.Provider>
    </QueryClientProvider>
  )
}
