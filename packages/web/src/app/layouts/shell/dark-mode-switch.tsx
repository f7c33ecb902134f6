import DarkModeIcon from '@mui/icons-material/DarkMode'
import FormControlLabel from '@mui/material/FormControlLabel'
import ListItem from '@mui/material/ListItem'
import ListItemIcon from '@mui/material/ListItemIcon'
import Switch from '@mui/material/Switch'
import { useTranslation } from 'react-i18next'
import { useColorMode } from '../../../hooks/use-color-mode'

/** The label is part of the control: clicking "Dark mode" switches, like the switch itself. */
export function DarkModeSwitch() {
  const { t } = useTranslation('shell')
  const { darkMode, setDarkMode } = useColorMode()
  return (
    <ListItem>
      <ListItemIcon>
        <DarkModeIcon />
      </ListItemIcon>
      <FormControlLabel
        label={t('darkMode')}
        labelPlacement="start"
        control={
          <Switch
            edge="end"
            checked={darkMode}
            onChange={(event) => setDarkMode(event.target.checked)}
          />
        }
        sx={{ flex: 1, ml: 0, mr: 0, justifyContent: 'space-between' }}
      />
    </ListItem>
  )
}
