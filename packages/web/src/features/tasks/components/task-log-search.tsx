import SearchIcon from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { useTaskLogSearch } from '../api/task-log-search'
import { highlightParts } from '../log-search-highlight'

/** The matched line with each occurrence of the searched text marked. */
export function HighlightedLine({ text, needle }: { text: string; needle: string }) {
  return (
    <>
      {highlightParts(text, needle).map((part, index) =>
        part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </>
  )
}

/** How many matches a search found, whether there are more, and whether it was cut short. */
export function SearchOutcome({
  result,
}: {
  result: { matches: readonly unknown[]; truncated: boolean; timed_out: boolean }
}) {
  const { t } = useTranslation('tasks')
  return (
    <Typography variant="body2" color="text.secondary" role="status">
      {result.truncated
        ? t('logSearch.moreThan', { count: result.matches.length })
        : t('logSearch.found', { count: result.matches.length })}
      {result.timed_out ? ` ${t('logSearch.timedOut')}` : ''}
    </Typography>
  )
}

/**
 * Searches the whole log on the server, however long it is, and lists the matching lines;
 * choosing one shows it in the log (`onJump` gets its line number).
 */
export function TaskLogSearch({
  projectId,
  taskId,
  onJump,
}: {
  projectId: number
  taskId: number
  onJump: (line: number) => void
}) {
  const { t } = useTranslation('tasks')
  const resultsId = useId()
  const [draft, setDraft] = useState('')
  const [text, setText] = useState('')
  const search = useTaskLogSearch(projectId, taskId, text)
  const result = search.data
  const submit = () => setText(draft.trim())
  const hasMatches = Boolean(result && result.matches.length > 0)

  return (
    <Stack spacing={1}>
      <Box
        component="form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
        sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
      >
        <TextField
          type="search"
          size="small"
          label={t('logSearch.label')}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          // aria-controls may only name an element that is on the page.
          slotProps={{
            htmlInput: { maxLength: 200, 'aria-controls': hasMatches ? resultsId : undefined },
          }}
          sx={{ flexGrow: 1, maxWidth: 360 }}
        />
        <IconButton type="submit" aria-label={t('logSearch.submit')}>
          <SearchIcon />
        </IconButton>
        {result ? (
          <SearchOutcome result={result} />
        ) : search.isFetching ? (
          <Typography variant="body2" color="text.secondary" role="status">
            {t('logSearch.searching')}
          </Typography>
        ) : null}
      </Box>
      <ErrorAlert error={search.error} />
      {result && hasMatches ? (
        <List
          id={resultsId}
          dense
          aria-label={t('logSearch.results')}
          sx={{ maxHeight: 200, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1 }}
        >
          {result.matches.map((match) => (
            <ListItemButton key={match.id} onClick={() => onJump(match.line)}>
              <Typography
                component="span"
                variant="body2"
                color="text.secondary"
                sx={{ minWidth: 72, fontFamily: 'monospace' }}
              >
                {t('logSearch.line', { line: match.line })}
              </Typography>
              <Typography
                component="span"
                variant="body2"
                noWrap
                sx={{ fontFamily: 'monospace', whiteSpace: 'pre' }}
              >
                <HighlightedLine text={match.output} needle={text} />
              </Typography>
            </ListItemButton>
          ))}
        </List>
      ) : null}
    </Stack>
  )
}
