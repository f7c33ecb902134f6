import Box from '@mui/material/Box'
import CircularProgress from '@mui/material/CircularProgress'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { isApiError } from '../../../lib/api-client'
import { useTerraformState } from '../api/states'
import { prettyState } from '../utils/backend-config'

/** The text of one state version, read when it is shown and indented for reading. */
export function StateContent({
  projectId,
  inventoryId,
  stateId,
}: {
  projectId: number
  inventoryId: number
  stateId: number
}) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const state = useTerraformState(projectId, inventoryId, stateId, true)

  if (state.isPending) {
    return (
      <Box sx={{ py: 2, display: 'flex', justifyContent: 'center' }}>
        <CircularProgress size={24} aria-label={tc('states.loading')} />
      </Box>
    )
  }
  if (state.error) {
    // A version deleted meanwhile, or one whose text is gone, has nothing to show.
    if (isApiError(state.error) && state.error.status === 404) {
      return (
        <Typography sx={{ color: 'text.secondary', py: 2 }}>
          {t('terraform.states.empty')}
        </Typography>
      )
    }
    return (
      <Box sx={{ pt: 2 }}>
        <ErrorAlert error={state.error} />
      </Box>
    )
  }
  const text = state.data.state
  if (!text) {
    return (
      <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('terraform.states.empty')}</Typography>
    )
  }
  return (
    <Box
      component="pre"
      // Scrolls on its own; focusable so that keyboard users can scroll it too.
      tabIndex={0}
      role="region"
      aria-label={t('terraform.states.content', { id: stateId })}
      sx={{
        m: 0,
        my: 1,
        p: 1.5,
        maxHeight: 480,
        overflow: 'auto',
        fontSize: 12,
        bgcolor: 'action.hover',
        borderRadius: 1,
      }}
    >
      {prettyState(text)}
    </Box>
  )
}
