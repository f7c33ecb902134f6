import CheckIcon from '@mui/icons-material/Check'
import TranslateIcon from '@mui/icons-material/Translate'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeLanguage } from '../../../lib/i18n'
import { LANGUAGE_CHOICES, SYSTEM_LANGUAGE_FLAG, matchLanguage } from '../../../lib/languages'
import { readStorage, storageKeys } from '../../../lib/storage'

export function LanguageMenu() {
  const { t } = useTranslation('shell')
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  const stored = readStorage(storageKeys.lang)
  const storedLanguage = stored ? matchLanguage(stored) : null
  const selected = LANGUAGE_CHOICES.find((choice) => matchLanguage(choice.code) === storedLanguage)
  const label = selected
    ? `${selected.flag} ${selected.nativeName}`
    : `${SYSTEM_LANGUAGE_FLAG} ${t('language.system')}`

  const choose = (code: string | null) => {
    setAnchor(null)
    if (code !== (selected?.code ?? null)) changeLanguage(code)
  }

  return (
    <>
      <ListItem disablePadding>
        <ListItemButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? menuId : undefined}
        >
          <ListItemIcon>
            <TranslateIcon />
          </ListItemIcon>
          <ListItemText primary={t('language.label')} secondary={label} />
        </ListItemButton>
      </ListItem>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { maxHeight: '70vh' } } }}
      >
        <MenuItem selected={!selected} onClick={() => choose(null)} lang="">
          <ListItemIcon aria-hidden>{SYSTEM_LANGUAGE_FLAG}</ListItemIcon>
          <ListItemText>{t('language.system')}</ListItemText>
          {!selected ? <CheckIcon fontSize="small" /> : null}
        </MenuItem>
        {LANGUAGE_CHOICES.map((choice) => (
          <MenuItem
            key={choice.code}
            selected={choice.code === selected?.code}
            onClick={() => choose(choice.code)}
            lang={matchLanguage(choice.code) ?? undefined}
          >
            <ListItemIcon aria-hidden>{choice.flag}</ListItemIcon>
            <ListItemText>{choice.nativeName}</ListItemText>
            {choice.code === selected?.code ? <CheckIcon fontSize="small" /> : null}
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}
