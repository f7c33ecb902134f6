import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { AdminOnly } from '../../components/admin-only'
import { paths } from '../../config/paths'
import { RunnersPage } from '../../features/runners/components/runners-page'
import { runnerServerUrl } from '../../features/runners/utils/runner-secret'
import { useSession } from '../session'

const GLOBAL_SCOPE = { projectId: null }

/** The administrators' runners, which take tasks of every project. */
export function GlobalRunnersRoute() {
  const { t } = useTranslation('runners')
  const { t: tc } = useTranslation()
  const { user, info } = useSession()
  if (!user.admin) return <AdminOnly />
  return (
    <Box component="main">
      <RunnersPage
        scope={GLOBAL_SCOPE}
        title={t('page.globalTitle')}
        start={
          <IconButton
            component={Link}
            to={paths.root.href()}
            edge="start"
            aria-label={tc('actions.back')}
          >
            <ArrowBackIcon />
          </IconButton>
        }
        canManage
        emptyText={t('empty.globalText')}
        serverUrl={runnerServerUrl(info.web_host, window.location.origin)}
      />
    </Box>
  )
}
