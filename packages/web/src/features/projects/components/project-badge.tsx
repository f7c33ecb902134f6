import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium'
import Avatar from '@mui/material/Avatar'
import { blue, green, orange, red } from '@mui/material/colors'
import { badgeColor, type BadgeColor, projectInitials } from '../utils/project-badge'

// Each pair keeps a contrast ratio of at least 4.5:1 between the initials and the badge.
const SHADES: Record<BadgeColor, string> = {
  red: red[700],
  blue: blue[700],
  orange: orange[800],
  green: green[800],
}
const TEXT: Record<BadgeColor, string> = {
  red: '#fff',
  blue: '#fff',
  orange: 'rgba(0, 0, 0, 0.87)',
  green: '#fff',
}

export interface ProjectBadgeProps {
  name: string
  /** Position of the project in the list; picks the colour. */
  index: number
  premium?: boolean
  size?: number
}

export function ProjectBadge({ name, index, premium = false, size = 32 }: ProjectBadgeProps) {
  const color = badgeColor(index)
  return (
    <Avatar
      aria-hidden
      data-color={color}
      variant="rounded"
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.42,
        fontWeight: 600,
        bgcolor: SHADES[color],
        color: TEXT[color],
      }}
    >
      {premium ? <WorkspacePremiumIcon fontSize="small" /> : projectInitials(name)}
    </Avatar>
  )
}
