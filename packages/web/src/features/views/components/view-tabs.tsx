import type { View } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import ArrowForwardIcon from '@mui/icons-material/ArrowForward'
import CheckIcon from '@mui/icons-material/Check'
import CloseIcon from '@mui/icons-material/Close'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import { type ReactNode, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { type DraftView, useSaveViews } from '../api/views'

/** Navigation state of the All tab: the list is shown as asked, not the last visited view. */
export const ALL_VIEWS_STATE = { allViews: true } as const

export function sortViews(views: readonly View[]): View[] {
  return [...views].sort((a, b) => a.position - b.position || a.id - b.id)
}

export interface ViewTabsProps {
  projectId: number
  views: readonly View[]
  /** The shown view; `null` is the All tab. */
  currentViewId: number | null
  hrefFor: (viewId: number | null) => string
  canManage: boolean
  /** Shown at the end of the tab row, e.g. table settings. */
  end?: ReactNode
}

/** The All tab and one tab per view; with the pencil the views are added, renamed and sorted. */
export function ViewTabs({
  projectId,
  views,
  currentViewId,
  hrefFor,
  canManage,
  end,
}: ViewTabsProps) {
  const { t } = useTranslation('templates')
  const { showMessage } = useSnackbar()
  const save = useSaveViews(projectId)
  const sorted = sortViews(views)
  const [draft, setDraft] = useState<DraftView[] | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const nextId = useRef(-1)

  const startEditing = () => {
    save.reset()
    setSubmitted(false)
    setDraft(sorted.map((view) => ({ id: view.id, title: view.title })))
  }
  const cancel = () => {
    save.reset()
    setDraft(null)
  }
  const confirm = () => {
    if (!draft) return
    setSubmitted(true)
    if (draft.some((view) => view.title.trim() === '')) return
    save.mutate(
      { original: sorted, draft },
      {
        onSuccess: () => {
          showMessage(t('messages.viewsSaved'))
          setDraft(null)
        },
      },
    )
  }
  const move = (index: number, by: number) =>
    setDraft((current) => {
      if (!current) return current
      const next = [...current]
      const [item] = next.splice(index, 1)
      if (item) next.splice(index + by, 0, item)
      return next
    })

  if (draft) {
    return (
      <Box sx={{ px: { xs: 1, sm: 2 }, py: 1 }}>
        <ErrorAlert error={save.error} />
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}
          role="list"
          aria-label={t('views.tabs')}
        >
          {draft.map((view, index) => {
            const empty = submitted && view.title.trim() === ''
            const title = view.title || t('views.newView')
            return (
              <Paper
                key={view.id}
                variant="outlined"
                role="listitem"
                sx={{ p: 0.5, display: 'flex', alignItems: 'flex-start', gap: 0.25 }}
              >
                <IconButton
                  size="small"
                  disabled={index === 0}
                  aria-label={t('views.moveLeft', { title })}
                  onClick={() => move(index, -1)}
                >
                  <ArrowBackIcon fontSize="small" />
                </IconButton>
                <TextField
                  size="small"
                  label={t('views.title')}
                  value={view.title}
                  autoFocus={view.id < 0}
                  error={empty}
                  helperText={empty ? t('views.titleRequired') : undefined}
                  onChange={(event) =>
                    setDraft(
                      draft.map((item) =>
                        item.id === view.id ? { ...item, title: event.target.value } : item,
                      ),
                    )
                  }
                  sx={{ width: 160 }}
                />
                <IconButton
                  size="small"
                  disabled={index === draft.length - 1}
                  aria-label={t('views.moveRight', { title })}
                  onClick={() => move(index, 1)}
                >
                  <ArrowForwardIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('views.delete', { title })}
                  onClick={() => setDraft(draft.filter((item) => item.id !== view.id))}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Paper>
            )
          })}
          <Button
            startIcon={<AddIcon />}
            onClick={() => setDraft([...draft, { id: nextId.current--, title: '' }])}
            sx={{ alignSelf: 'center' }}
          >
            {t('views.add')}
          </Button>
          <Box sx={{ flexGrow: 1 }} />
          <Box sx={{ alignSelf: 'center' }}>
            <Tooltip title={t('views.save')}>
              <span>
                <IconButton
                  color="success"
                  aria-label={t('views.save')}
                  onClick={confirm}
                  disabled={save.isPending}
                >
                  <CheckIcon />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title={t('views.cancel')}>
              <IconButton color="error" aria-label={t('views.cancel')} onClick={cancel}>
                <CloseIcon />
              </IconButton>
            </Tooltip>
          </Box>
        </Stack>
      </Box>
    )
  }

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', px: { xs: 0, sm: 1 } }}>
      <Tabs
        value={currentViewId ?? 'all'}
        variant="scrollable"
        scrollButtons="auto"
        aria-label={t('views.tabs')}
        sx={{ flexGrow: 1, minWidth: 0 }}
      >
        <Tab
          value="all"
          label={t('views.all')}
          component={RouterLink}
          to={hrefFor(null)}
          state={ALL_VIEWS_STATE}
        />
        {sorted.map((view) => (
          <Tab
            key={view.id}
            value={view.id}
            label={view.title}
            component={RouterLink}
            to={hrefFor(view.id)}
          />
        ))}
      </Tabs>
      {canManage ? (
        <Tooltip title={t('views.edit')}>
          <IconButton aria-label={t('views.edit')} onClick={startEditing}>
            <EditIcon />
          </IconButton>
        </Tooltip>
      ) : null}
      {end}
    </Box>
  )
}
