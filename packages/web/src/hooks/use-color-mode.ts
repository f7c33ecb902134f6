import { createContext, useContext } from 'react'

export interface ColorMode {
  darkMode: boolean
  setDarkMode: (dark: boolean) => void
}

export const ColorModeContext = createContext<ColorMode>({
  darkMode: false,
  setDarkMode: () => undefined,
})

export function useColorMode(): ColorMode {
  return useContext(ColorModeContext)
}
