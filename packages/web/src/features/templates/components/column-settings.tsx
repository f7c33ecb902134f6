import SettingsIcon from '@mui/icons-material/Settings'
import Checkbox from '@mui/material/Checkbox'
import IconButton from '@mui/material/IconButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Tooltip from '@mui/material/Tooltip'
import { useId, useState } from 'react'

export interface ColumnOption {
  id: string
  label: string
}

export interface ColumnSettingsProps {
  label: string
  columns: readonly ColumnOption[]
  hidden: readonly string[]
  onChange: (hidden: string[]) => void
}

/** A small menu that shows or hides the columns of a table. */
export function ColumnSettings({ label, columns, hidden, onChange }: ColumnSettingsProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          aria-label={label}
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <SettingsIcon />
        </IconButton>
      </Tooltip>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {columns.map((column) => {
          const visible = !hidden.includes(column.id)
          return (
            <MenuItem
              key={column.id}
              role="menuitemcheckbox"
              aria-checked={visible}
              onClick={() =>
                onChange(
                  visible ? [...hidden, column.id] : hidden.filter((item) => item !== column.id),
                )
              }
            >
              <ListItemIcon>
                <Checkbox edge="start" checked={visible} tabIndex={-1} disableRipple size="small" />
              </ListItemIcon>
              <ListItemText>{column.label}</ListItemText>
            </MenuItem>
          )
        })}
      </Menu>
    </>
  )
}
