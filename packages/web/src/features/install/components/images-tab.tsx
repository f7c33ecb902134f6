import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { IMAGE_NAME, IMAGE_SETTINGS, imageCommands } from '../data/images'
import { RELEASES } from '../data/releases'
import { CodeBlock } from './code-block'

/** The container image: how to build and run it, and what it sets. */
export function ImagesTab() {
  const { t } = useTranslation('install')
  const version = RELEASES[0]?.version ?? 'latest'
  const commands = imageCommands(version)
  return (
    <Stack spacing={2}>
      <Typography sx={{ color: 'text.secondary' }}>
        {t('images.intro', { image: `${IMAGE_NAME}:${version}` })}
      </Typography>
      <Typography component="h2" variant="h6">
        {t('images.build')}
      </Typography>
      <CodeBlock code={commands.build} label={t('images.build')} />
      <Typography component="h2" variant="h6">
        {t('images.run')}
      </Typography>
      <CodeBlock code={commands.run} label={t('images.run')} />
      <Typography component="h2" variant="h6">
        {t('images.settings')}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label={t('images.settings')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('images.name')}</TableCell>
              <TableCell>{t('images.value')}</TableCell>
              <TableCell>{t('images.meaning')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {IMAGE_SETTINGS.map((setting) => (
              <TableRow key={setting.name}>
                <TableCell sx={{ fontFamily: 'monospace' }}>{setting.name}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{setting.value}</TableCell>
                <TableCell>{t(`images.settingsText.${setting.description}`)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  )
}
