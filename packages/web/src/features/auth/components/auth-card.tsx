import Box from '@mui/material/Box'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

/** The centred card of the sign-in screens, with the logo and a title. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Box sx={{ textAlign: 'center' }}>
            <Box component="img" src="/favicon.svg" alt="" sx={{ width: 48, height: 48 }} />
            <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
              {title}
            </Typography>
          </Box>
          {children}
        </Stack>
      </Paper>
    </Box>
  )
}
