import Box from '@mui/material/Box'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { type ReactNode, useId } from 'react'

export interface SectionProps {
  title: string
  /** A sentence under the title on what the section is for. */
  text?: ReactNode
  actions?: ReactNode
  children: ReactNode
}

/** A titled part of an integrations page, a region named by its heading. */
export function Section({ title, text, actions, children }: SectionProps) {
  const headingId = useId()
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {actions ? <Box sx={{ display: 'flex', gap: 1 }}>{actions}</Box> : null}
      </Box>
      {text ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {text}
        </Typography>
      ) : null}
      {children}
    </Paper>
  )
}
