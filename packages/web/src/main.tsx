import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router-dom'
import { AppProvider } from './app/provider'
import { createAppQueryClient } from './app/query-client'
import { createAppRouter, preloadRoute } from './app/router'
import { initI18n } from './lib/i18n'
import { readStorage, storageKeys } from './lib/storage'

async function start() {
  const queryClient = createAppQueryClient()
  // Code and data of the address load while the translations do, not after them.
  const { pathname } = window.location
  preloadRoute(pathname, (projectId) => readStorage(storageKeys.lastProjectPage(projectId)))
  void import('./app/prefetch-session').then(({ prefetchSession }) =>
    prefetchSession(queryClient, pathname),
  )
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
