import Box from '@mui/material/Box'
import Drawer from '@mui/material/Drawer'
import useMediaQuery from '@mui/material/useMediaQuery'
import { Suspense, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet, useParams } from 'react-router-dom'
import { LoadingState } from '../../components/loading-state'
import { DRAWER_WIDTH, MOBILE_BREAKPOINT_PX } from '../../config/constants'
import { DrawerContext } from '../../hooks/use-drawer'
import { DrawerContent } from './shell/drawer-content'

function parseProjectId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null
  return Number(value)
}

/** The project shell: the side drawer (permanent on wide screens) and the page beside it. */
export function ShellLayout() {
  const { t } = useTranslation('shell')
  const params = useParams()
  const projectId = parseProjectId(params.projectId)
  const temporary = useMediaQuery(`(max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`, { noSsr: true })
  const [open, setOpen] = useState(false)
  const drawer = useMemo(() => ({ temporary, open: () => setOpen(true) }), [temporary])
  const closeOnMobile = () => {
    if (temporary) setOpen(false)
  }

  const content = <DrawerContent projectId={projectId} onNavigate={closeOnMobile} />
  const paperSx = { width: DRAWER_WIDTH, boxSizing: 'border-box' } as const

  return (
    <DrawerContext.Provider value={drawer}>
      <Box sx={{ display: 'flex', minHeight: '100vh' }}>
        <Box
          component="aside"
          aria-label={t('drawer.label')}
          sx={{ width: temporary ? 0 : DRAWER_WIDTH, flexShrink: 0 }}
        >
          {temporary ? (
            <Drawer
              variant="temporary"
              open={open}
              onClose={() => setOpen(false)}
              slotProps={{ paper: { sx: paperSx, 'aria-label': t('drawer.label') } }}
            >
              {content}
            </Drawer>
          ) : (
            <Drawer variant="permanent" open slotProps={{ paper: { sx: paperSx } }}>
              {content}
            </Drawer>
          )}
        </Box>
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </DrawerContext.Provider>
  )
}
