import { REF_SECTIONS, type Refs, type RefItem } from '@flagman/contract'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import DialogContentText from '@mui/material/DialogContentText'
import Link from '@mui/material/Link'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { AppDialog } from '../../../components/app-dialog'
import { paths } from '../../../config/paths'

type Section = (typeof REF_SECTIONS)[number]

/**
 * The page a reference links to: templates (and schedules, which are listed by their template)
 * open the template; inventories and repositories their list; integrations their own page.
 */
function refHref(section: Section, projectId: number, item: RefItem): string | null {
  switch (section) {
    case 'templates':
    case 'schedules':
      return paths.projectTemplate.href(projectId, item.id)
    case 'inventories':
      return paths.projectInventory.href(projectId)
    case 'repositories':
      return paths.projectRepositories.href(projectId)
    case 'integrations':
      return paths.projectIntegration.href(projectId, item.id)
    default:
      return null
  }
}

function RefSection({
  section,
  items,
  projectId,
  onNavigate,
}: {
  section: Section
  items: readonly RefItem[]
  projectId: number
  onNavigate: () => void
}) {
  const { t } = useTranslation('references')
  const headingId = useId()
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id={headingId} variant="subtitle2" component="h3">
        {t(`sections.${section}`)}
      </Typography>
      <List dense disablePadding aria-labelledby={headingId}>
        {items.map((item) => {
          const href = refHref(section, projectId, item)
          return (
            <ListItem key={item.id} sx={{ py: 0.25 }}>
              {href ? (
                <Link component={RouterLink} to={href} onClick={onNavigate}>
                  {item.name}
                </Link>
              ) : (
                <Typography variant="body2">{item.name}</Typography>
              )}
            </ListItem>
          )
        })}
      </List>
    </Box>
  )
}

export interface ReferencesDialogProps {
  open: boolean
  projectId: number
  /** What is being deleted, in words: "key", "repository"… */
  object: string
  refs: Refs | null
  onClose: () => void
}

/** Shown instead of deleting an object that other resources still use. */
export function ReferencesDialog({
  open,
  projectId,
  object,
  refs,
  onClose,
}: ReferencesDialogProps) {
  const { t } = useTranslation('references')
  const { t: tc } = useTranslation()
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={t('title', { object })}
      actions={
        <Button variant="contained" onClick={onClose}>
          {tc('actions.close')}
        </Button>
      }
    >
      <DialogContentText>{t('text', { object })}</DialogContentText>
      {refs
        ? REF_SECTIONS.filter((section) => refs[section].length > 0).map((section) => (
            <RefSection
              key={section}
              section={section}
              items={refs[section]}
              projectId={projectId}
              onNavigate={onClose}
            />
          ))
        : null}
    </AppDialog>
  )
}
