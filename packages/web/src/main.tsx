// Must run before any module builds a schema.
import './lib/zod-jitless'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router-dom'
import { prefetchSession } from './app/prefetch-session'
import { AppProvider } from './app/provider'
import { createAppQueryClient } from './app/query-client'
import { createAppRouter, preloadRoute } from './app/router'
import { initI18n } from './lib/i18n'
import { readStorage, storageKeys } from './lib/storage'

async function start() {
  const queryClient = createAppQueryClient()
  // Data and code of the address load while the translations do, not after them.
  const { pathname } = window.location
  const lastProjectPage = (projectId: number) => readStorage(storageKeys.lastProjectPage(projectId))
  void prefetchSession(queryClient, pathname, lastProjectPage)
  preloadRoute(pathname, lastProjectPage)
  await initI18n()
  const router = createAppRouter()
  const container = document.getElementById('root')
  if (!container) throw new Error('The page has no #root element')
  createRoot(container).render(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  )
}

void start()
