import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { type ReactNode } from 'react'

export function EmptyState({
  title,
  text,
  icon,
  action,
}: {
  title: string
  text?: string
  icon?: ReactNode
  action?: ReactNode
}) {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, color: 'text.secondary' }}>
      {icon ? <Box sx={{ fontSize: 48, mb: 1, '& svg': { fontSize: 48 } }}>{icon}</Box> : null}
      <Typography variant="h6" component="p" sx={{ color: 'text.primary' }}>
        {title}
      </Typography>
      {text ? <Typography sx={{ mt: 1 }}>{text}</Typography> : null}
      {action ? <Box sx={{ mt: 3 }}>{action}</Box> : null}
    </Box>
  )
}
