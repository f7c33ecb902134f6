import {
  deDE,
  enUS,
  esES,
  frFR,
  itIT,
  jaJP,
  koKR,
  nlNL,
  plPL,
  ptBR,
  ptPT,
  ruRU,
  ukUA,
  zhCN,
  zhTW,
  type Localization,
} from '@mui/material/locale'
import { createTheme, type Theme } from '@mui/material/styles'
import type { Language } from '../lib/languages'

/** The texts MUI's own components show (pager labels, "Close", "No options"…) per language. */
export const MUI_LOCALES: Record<Language, Localization> = {
  de: deDE,
  en: enUS,
  es: esES,
  fr: frFR,
  it: itIT,
  ja: jaJP,
  ko: koKR,
  nl: nlNL,
  pl: plPL,
  pt: ptPT,
  'pt-br': ptBR,
  ru: ruRU,
  uk: ukUA,
  'zh-cn': zhCN,
  'zh-tw': zhTW,
}

export function createAppTheme(darkMode: boolean, language: Language = 'en'): Theme {
  return createTheme(
    {
      palette: {
        mode: darkMode ? 'dark' : 'light',
        primary: { main: darkMode ? '#64b5f6' : '#1565c0' },
        background: darkMode ? { default: '#121212', paper: '#1e1e1e' } : { default: '#f5f6f8' },
      },
      shape: { borderRadius: 6 },
      components: {
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiTextField: { defaultProps: { variant: 'outlined' } },
      },
    },
    MUI_LOCALES[language],
  )
}
