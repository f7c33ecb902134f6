import SearchOffIcon from '@mui/icons-material/SearchOff'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'

export function NotFoundRoute({ kind = 'page' }: { kind?: 'page' | 'project' }) {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={kind === 'project' ? t('notFound.projectTitle') : t('notFound.title')} />
      <EmptyState
        icon={<SearchOffIcon />}
        title={kind === 'project' ? t('notFound.projectTitle') : t('notFound.title')}
        text={kind === 'project' ? t('notFound.projectText') : t('notFound.text')}
        action={
          <Button component={Link} to={paths.root.href()} variant="contained">
            {t('notFound.home')}
          </Button>
        }
      />
    </>
  )
}
