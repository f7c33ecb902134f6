import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { PageHeader } from '../../../components/page-header'
import { paths } from '../../../config/paths'
import { RunnersPage } from '../../../features/runners/components/runners-page'
import { runnerServerUrl } from '../../../features/runners/utils/runner-secret'
import { useCurrentProject } from '../../project-context'
import { useSession } from '../../session'

export function RunnersRoute() {
  const { t } = useTranslation('runners')
  const { info } = useSession()
  const { project, can, isAdmin } = useCurrentProject()
  const scope = useMemo(() => ({ projectId: project.id }), [project.id])
  const globalLink = isAdmin ? (
    <Button component={Link} to={paths.runners.href()}>
      {t('page.globalTitle')}
    </Button>
  ) : null

  if (!info.premium_features.project_runners) {
    return (
      <>
        <PageHeader title={t('page.title')} actions={globalLink} />
        <Box sx={{ p: { xs: 1, sm: 3 } }}>
          <Alert severity="info">{t('page.proOnly')}</Alert>
        </Box>
      </>
    )
  }
  return (
    <RunnersPage
      scope={scope}
      title={t('page.title')}
      extraActions={globalLink}
      // Writes need the resources bit, as the server checks it.
      canManage={can('manageProjectResources')}
      emptyText={t('empty.text')}
      serverUrl={runnerServerUrl(info.web_host, window.location.origin)}
    />
  )
}
