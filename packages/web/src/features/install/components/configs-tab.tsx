import DownloadIcon from '@mui/icons-material/Download'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import {
  composeFile,
  type ConfigFile,
  environmentFile,
  nginxSite,
  systemdUnit,
} from '../data/config-files'
import { RELEASES } from '../data/releases'
import { saveTextFile } from '../utils/save-text-file'
import { CodeBlock } from './code-block'

type SnippetId = 'environment' | 'systemd' | 'nginx' | 'compose'

function Snippet({ id, file }: { id: SnippetId; file: ConfigFile }) {
  const { t } = useTranslation('install')
  const titleId = useId()
  const title = t(`configs.${id}.title`)
  return (
    <Paper component="section" aria-labelledby={titleId} variant="outlined" sx={{ p: 2 }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          alignItems: 'center',
          justifyContent: 'space-between',
          mb: 1,
        }}
      >
        <Typography id={titleId} component="h2" variant="h6">
          {title}
        </Typography>
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => saveTextFile(file.name, file.content, file.type)}
        >
          {t('artifacts.downloadFile', { file: file.name })}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t(`configs.${id}.text`)}
      </Typography>
      <CodeBlock code={file.content} label={file.name} />
    </Paper>
  )
}

/** Configuration files for running Flagman as a service, behind a proxy or in containers. */
export function ConfigsTab() {
  const { t } = useTranslation('install')
  const version = RELEASES[0]?.version ?? 'latest'
  return (
    <Stack spacing={2}>
      <Typography sx={{ color: 'text.secondary' }}>{t('configs.intro')}</Typography>
      <Snippet id="environment" file={environmentFile} />
      <Snippet id="systemd" file={systemdUnit} />
      <Snippet id="nginx" file={nginxSite} />
      <Snippet id="compose" file={composeFile(version)} />
    </Stack>
  )
}
