import CheckIcon from '@mui/icons-material/Check'
import LanguageIcon from '@mui/icons-material/Language'
import TranslateIcon from '@mui/icons-material/Translate'
import Box from '@mui/material/Box'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeLanguage } from '../../../lib/i18n'
import { LANGUAGE_CHOICES, languageTag, matchLanguage } from '../../../lib/languages'
import { readStorage, storageKeys } from '../../../lib/storage'

/** A language's code in a small outlined box, where the menu used to show a flag. */
function LanguageTag({ tag }: { tag: string }) {
  return (
    <Box
      component="span"
      sx={{
        fontSize: 11,
        fontWeight: 600,
        lineHeight: '16px',
        px: 0.5,
        border: 1,
        borderColor: 'divider',
        borderRadius: 0.5,
        color: 'text.secondary',
        minWidth: 24,
        textAlign: 'center',
      }}
    >
      {tag}
    </Box>
  )
}

export function LanguageMenu() {
  const { t } = useTranslation('shell')
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  const stored = readStorage(storageKeys.lang)
  const storedLanguage = stored ? matchLanguage(stored) : null
  const selected = LANGUAGE_CHOICES.find((choice) => matchLanguage(choice.code) === storedLanguage)
  const label = selected ? selected.nativeName : t('language.system')

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
          <ListItemIcon aria-hidden>
            <LanguageIcon fontSize="small" />
          </ListItemIcon>
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
            <ListItemIcon aria-hidden>
              <LanguageTag tag={languageTag(choice.code)} />
            </ListItemIcon>
            <ListItemText>{choice.nativeName}</ListItemText>
            {choice.code === selected?.code ? <CheckIcon fontSize="small" /> : null}
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}
