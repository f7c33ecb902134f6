import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'
import type { ReactNode } from 'react'

export interface HeaderButtonProps {
  label: string
  icon: ReactNode
  onClick: () => void
}

/** A page header action: an icon with a tooltip on narrow screens, a labelled button on wide. */
export function HeaderButton({ label, icon, onClick }: HeaderButtonProps) {
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          aria-label={label}
          onClick={onClick}
          sx={{ display: { xs: 'inline-flex', md: 'none' } }}
        >
          {icon}
        </IconButton>
      </Tooltip>
      <Button
        startIcon={icon}
        onClick={onClick}
        sx={{ display: { xs: 'none', md: 'inline-flex' } }}
      >
        {label}
      </Button>
    </>
  )
}
