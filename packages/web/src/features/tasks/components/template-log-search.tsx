import SearchIcon from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { type ProjectLogSearchFilter, useProjectLogSearch } from '../api/task-log-search'
import { HighlightedLine, SearchOutcome } from './task-log-search'

/** Searches the logs of a template's runs over a range of days; a match opens its task. */
export function TemplateLogSearch({
  projectId,
  templateId,
}: {
  projectId: number
  templateId: number
}) {
  const { t } = useTranslation('tasks')
  const [draft, setDraft] = useState({ text: '', from: '', to: '' })
  const [filter, setFilter] = useState<ProjectLogSearchFilter>({ text: '' })
  const search = useProjectLogSearch(projectId, filter)
  const result = search.data

  return (
    <Box sx={{ mb: 2 }}>
      <Box
        component="form"
        role="search"
        aria-label={t('logSearch.historyTitle')}
        onSubmit={(event) => {
          event.preventDefault()
          setFilter({
            text: draft.text.trim(),
            templateId,
            from: draft.from || undefined,
            to: draft.to || undefined,
          })
        }}
        sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <TextField
          type="search"
          size="small"
          label={t('logSearch.historyTitle')}
          value={draft.text}
          onChange={(event) => setDraft({ ...draft, text: event.target.value })}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          sx={{ flexGrow: 1, maxWidth: 360 }}
        />
        <TextField
          type="date"
          size="small"
          label={t('logSearch.historyFrom')}
          value={draft.from}
          onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('logSearch.historyTo')}
          value={draft.to}
          onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <IconButton type="submit" aria-label={t('logSearch.submit')}>
          <SearchIcon />
        </IconButton>
        {result ? <SearchOutcome result={result} /> : null}
      </Box>
      <ErrorAlert error={search.error} />
      {result && result.matches.length > 0 ? (
        <List
          dense
          aria-label={t('logSearch.historyResults')}
          sx={{ maxHeight: 240, overflow: 'auto' }}
        >
          {result.matches.map((match) => (
            <ListItem key={match.id} sx={{ gap: 2 }}>
              <Link component={RouterLink} to={`?t=${match.task_id}`} sx={{ minWidth: 80 }}>
                {t('logSearch.historyTask', { id: match.task_id })}
              </Link>
              <Typography
                component="span"
                variant="body2"
                noWrap
                sx={{ fontFamily: 'monospace', whiteSpace: 'pre' }}
              >
                <HighlightedLine text={match.output} needle={filter.text} />
              </Typography>
            </ListItem>
          ))}
        </List>
      ) : null}
    </Box>
  )
}
