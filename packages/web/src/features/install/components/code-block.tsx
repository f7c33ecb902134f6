import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'
import { useTranslation } from 'react-i18next'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { copyToClipboard } from '../../users/utils/copy-to-clipboard'

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A command or a file shown as it is, with a button that copies it. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation('install')
  const { showMessage } = useSnackbar()
  const copy = async () => {
    try {
      await copyToClipboard(code)
      showMessage(t('copy.copied'))
    } catch (error) {
      showMessage(t('copy.failed', { message: reasonOf(error) }), 'error')
    }
  }
  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={label}
        sx={{
          m: 0,
          p: 2,
          pr: 6,
          overflowX: 'auto',
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: 13,
          lineHeight: 1.5,
        }}
      >
        <code>{code}</code>
      </Box>
      <Tooltip title={t('copy.button')}>
        <IconButton
          aria-label={t('copy.label', { name: label })}
          onClick={() => void copy()}
          size="small"
          sx={{ position: 'absolute', top: 6, right: 6 }}
        >
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  )
}
