import Box from '@mui/material/Box'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import { displayVersion } from '@flagman/contract'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { PageHeader } from '../../../components/page-header'
import { ArtifactsTab } from './artifacts-tab'
import { ConfigsTab } from './configs-tab'
import { ImagesTab } from './images-tab'

export type InstallTab = 'artifacts' | 'images' | 'configs'

export interface InstallPageProps {
  tab: InstallTab
  /** Address of each tab. */
  hrefs: Record<InstallTab, string>
  /** The version this server runs, as it reports it. */
  serverVersion: string
}

/** How to install and run Flagman: releases, the container image, configuration files. */
export function InstallPage({ tab, hrefs, serverVersion }: InstallPageProps) {
  const { t } = useTranslation('install')
  const tabs: InstallTab[] = ['artifacts', 'images', 'configs']
  return (
    <>
      <PageHeader title={t('title')}>
        <Tabs
          value={tab}
          aria-label={t('tabs.label')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: { xs: 0, sm: 2 } }}
        >
          {tabs.map((value) => (
            <Tab
              key={value}
              value={value}
              label={t(`tabs.${value}`)}
              component={Link}
              to={hrefs[value]}
            />
          ))}
        </Tabs>
      </PageHeader>
      <Box sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1000 }}>
        {tab === 'artifacts' ? (
          <ArtifactsTab serverVersion={displayVersion(serverVersion)} />
        ) : null}
        {tab === 'images' ? <ImagesTab /> : null}
        {tab === 'configs' ? <ConfigsTab /> : null}
      </Box>
    </>
  )
}
