import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import type { InstallAsset, Release } from '../data/releases'
import { saveTextFile } from '../utils/save-text-file'
import { CodeBlock } from './code-block'

/** Wide enough for the longest command on one line. */
const GUIDE_WIDTH = 720

export interface InstallAssetDialogProps {
  release: Release
  asset: InstallAsset | null
  onClose: () => void
}

/** The installation guide of one asset: what it needs, and the command that installs it. */
export function InstallAssetDialog({ release, asset, onClose }: InstallAssetDialogProps) {
  const { t } = useTranslation('install')
  const { t: tCommon } = useTranslation()
  return (
    <AppDialog
      open={asset !== null}
      onClose={onClose}
      width={GUIDE_WIDTH}
      title={
        asset
          ? t('guide.title', { name: t(`assets.${asset.id}.name`), version: release.version })
          : ''
      }
      actions={
        <>
          {asset ? (
            <Button
              onClick={() => saveTextFile(asset.file.name, asset.file.content, asset.file.type)}
            >
              {t('artifacts.downloadFile', { file: asset.file.name })}
            </Button>
          ) : null}
          <Button variant="contained" onClick={onClose}>
            {tCommon('actions.close')}
          </Button>
        </>
      }
    >
      {asset ? (
        <Stack spacing={2}>
          <Typography>
            {t(`assets.${asset.id}.guide`, { node: release.node, file: asset.file.name })}
          </Typography>
          <CodeBlock code={asset.command} label={t('guide.command')} />
        </Stack>
      ) : null}
    </AppDialog>
  )
}
