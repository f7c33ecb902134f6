import { createTheme, type Theme } from '@mui/material/styles'

export function createAppTheme(darkMode: boolean): Theme {
  return createTheme({
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
  })
}
