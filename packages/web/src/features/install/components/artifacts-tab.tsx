import ExpandMoreIcon from '@mui/icons-material/ExpandMore'
import Accordion from '@mui/material/Accordion'
import AccordionDetails from '@mui/material/AccordionDetails'
import AccordionSummary from '@mui/material/AccordionSummary'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDate } from '../utils/format-date'
import { type InstallAsset, type Release, RELEASES } from '../data/releases'
import { saveTextFile } from '../utils/save-text-file'
import { InstallAssetDialog } from './install-asset-dialog'

function ReleaseAssets({ release }: { release: Release }) {
  const { t } = useTranslation('install')
  const [installing, setInstalling] = useState<InstallAsset | null>(null)
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={t('artifacts.assetsOf', { version: release.version })}>
          <TableHead>
            <TableRow>
              <TableCell>{t('artifacts.asset')}</TableCell>
              <TableCell>{t('artifacts.platforms')}</TableCell>
              <TableCell>{t('artifacts.architectures')}</TableCell>
              <TableCell align="right">{t('artifacts.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {release.assets.map((asset) => {
              const name = t(`assets.${asset.id}.name`)
              return (
                <TableRow key={asset.id}>
                  <TableCell>
                    <Typography sx={{ fontWeight: 500 }}>{name}</Typography>
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t(`assets.${asset.id}.description`)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {asset.platforms.map((platform) => t(`platforms.${platform}`)).join(', ')}
                  </TableCell>
                  <TableCell>{asset.architectures.join(', ')}</TableCell>
                  <TableCell align="right">
                    <Box
                      sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}
                    >
                      <Button
                        size="small"
                        variant="contained"
                        aria-label={t('artifacts.installLabel', { name })}
                        onClick={() => setInstalling(asset)}
                      >
                        {t('artifacts.install')}
                      </Button>
                      <Button
                        size="small"
                        variant="outlined"
                        aria-label={t('artifacts.downloadLabel', { name, file: asset.file.name })}
                        onClick={() =>
                          saveTextFile(asset.file.name, asset.file.content, asset.file.type)
                        }
                      >
                        {t('artifacts.download')}
                      </Button>
                    </Box>
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <InstallAssetDialog
        release={release}
        asset={installing}
        onClose={() => setInstalling(null)}
      />
    </>
  )
}

/** Flagman's releases, newest first, each with the ways to install it. */
export function ArtifactsTab({ serverVersion }: { serverVersion: string }) {
  const { t, i18n } = useTranslation('install')
  return (
    <Stack spacing={2}>
      <Typography sx={{ color: 'text.secondary' }}>{t('artifacts.intro')}</Typography>
      <div>
        {RELEASES.map((release, index) => (
          <Accordion
            key={release.version}
            defaultExpanded={index === 0}
            disableGutters
            slotProps={{ heading: { component: 'h2' } }}
          >
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Box
                component="span"
                sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}
              >
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {t('artifacts.version', { version: release.version })}
                </Typography>
                <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('artifacts.released', { date: formatDate(release.date, i18n.language) })}
                </Typography>
                {serverVersion === release.version ? (
                  <Chip
                    component="span"
                    size="small"
                    color="primary"
                    label={t('artifacts.running')}
                  />
                ) : null}
              </Box>
            </AccordionSummary>
            <AccordionDetails>
              <Typography variant="body2" sx={{ mb: 1 }}>
                {t('artifacts.requires', { node: release.node })}
              </Typography>
              <ReleaseAssets release={release} />
            </AccordionDetails>
          </Accordion>
        ))}
      </div>
    </Stack>
  )
}
