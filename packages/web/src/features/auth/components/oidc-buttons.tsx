import AppleIcon from '@mui/icons-material/Apple'
import BusinessIcon from '@mui/icons-material/Business'
import CloudIcon from '@mui/icons-material/Cloud'
import FacebookIcon from '@mui/icons-material/Facebook'
import GitHubIcon from '@mui/icons-material/GitHub'
import GoogleIcon from '@mui/icons-material/Google'
import KeyIcon from '@mui/icons-material/Key'
import LinkedInIcon from '@mui/icons-material/LinkedIn'
import LockIcon from '@mui/icons-material/Lock'
import LoginIcon from '@mui/icons-material/Login'
import MicrosoftIcon from '@mui/icons-material/Microsoft'
import XIcon from '@mui/icons-material/X'
import type { OidcProvider } from '@flagman/contract'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { type ReactNode } from 'react'

/** Icons by the name a provider's `icon` gives (Material Design icon names, `mdi-` optional). */
const ICONS: Record<string, ReactNode> = {
  apple: <AppleIcon />,
  domain: <BusinessIcon />,
  office: <BusinessIcon />,
  cloud: <CloudIcon />,
  facebook: <FacebookIcon />,
  github: <GitHubIcon />,
  google: <GoogleIcon />,
  key: <KeyIcon />,
  linkedin: <LinkedInIcon />,
  lock: <LockIcon />,
  login: <LoginIcon />,
  microsoft: <MicrosoftIcon />,
  twitter: <XIcon />,
  x: <XIcon />,
}

function providerIcon(icon: string): ReactNode {
  const name = icon.toLowerCase().replace(/^mdi-/, '')
  return ICONS[name] ?? <LoginIcon />
}

/** A colour from the server's configuration, used only when it is a plain CSS colour. */
function safeColor(color: string): string | undefined {
  return /^(#[0-9a-f]{3,8}|[a-z]+)$/i.test(color.trim()) ? color.trim() : undefined
}

export interface OidcButtonsProps {
  providers: readonly OidcProvider[]
  hrefFor: (provider: OidcProvider) => string
}

/** One button per single-sign-on provider; each is a link, as sign-on leaves the console. */
export function OidcButtons({ providers, hrefFor }: OidcButtonsProps) {
  if (providers.length === 0) return null
  return (
    <Stack spacing={1.5}>
      {providers.map((provider) => {
        const color = safeColor(provider.color)
        return (
          <Button
            key={provider.id}
            href={hrefFor(provider)}
            variant="contained"
            size="large"
            fullWidth
            startIcon={providerIcon(provider.icon)}
            sx={
              color
                ? { bgcolor: color, '&:hover': { bgcolor: color, filter: 'brightness(0.9)' } }
                : undefined
            }
          >
            {provider.name}
          </Button>
        )
      })}
    </Stack>
  )
}
