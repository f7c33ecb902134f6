import DarkModeIcon from '@mui/icons-material/DarkMode'
import ListItem from '@mui/material/ListItem'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Switch from '@mui/material/Switch'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useColorMode } from '../../../hooks/use-color-mode'

export function DarkModeSwitch() {
  const { t } = useTranslation('shell')
  const { darkMode, setDarkMode } = useColorMode()
  const labelId = useId()
  return (
    <ListItem
      secondaryAction={
        <Switch
          edge="end"
          checked={darkMode}
          onChange={(event) => setDarkMode(event.target.checked)}
          slotProps={{ input: { 'aria-labelledby': labelId } }}
        />
      }
    >
      <ListItemIcon>
        <DarkModeIcon />
      </ListItemIcon>
      <ListItemText id={labelId} primary={t('darkMode')} />
    </ListItem>
  )
}
