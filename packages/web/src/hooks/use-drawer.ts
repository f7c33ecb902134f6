import { createContext, useContext } from 'react'

export interface DrawerControl {
  /** True when the drawer overlays the page and has to be opened by a button. */
  temporary: boolean
  open: () => void
}

/** Null outside the project shell, where there is no drawer to open. */
export const DrawerContext = createContext<DrawerControl | null>(null)

export function useDrawer(): DrawerControl | null {
  return useContext(DrawerContext)
}
