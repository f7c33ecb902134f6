import CloseIcon from '@mui/icons-material/Close'
import DownloadIcon from '@mui/icons-material/Download'
import FullscreenIcon from '@mui/icons-material/Fullscreen'
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit'
import Box from '@mui/material/Box'
import Breadcrumbs from '@mui/material/Breadcrumbs'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import {
  type ReactNode,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react'
import { useTranslation } from 'react-i18next'
import { isFinished } from '@flagman/contract'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { readStorage, writeStorage } from '../../../lib/storage'
import { useRealtime } from '../../../hooks/use-realtime'
import { useTeam } from '../../team/api/get-team'
import { type TaskAction, useTask, useTaskAction, useTaskTemplate } from '../api/tasks'
import { useTaskOutputPages } from '../api/task-output-pages'
import { LogBuffer, type LogLine } from '../log-buffer'
import { WHOLE_LOG_SEARCH_LIMIT } from '../output-pages'
import { taskActions } from '../task-status'
import { useTaskOriginNames } from '../api/task-origins'
import { useFormat } from '../../../lib/format'
import { TaskDuration } from './task-duration'
import { TaskStartTimings } from './task-start-timings'
import { useJumpToLogLine } from './jump-to-log-line'
import { TaskLogSearch } from './task-log-search'
import { TaskLogView } from './task-log-view'
import { TaskOrigin } from './task-origin'
import { TaskStatusChip } from './task-status-chip'

/** Width of the task log dialog in pixels. */
export const TASK_LOG_DIALOG_WIDTH = 1000
const DIALOG_NAME = 'taskLog'

export const fullscreenStorageKey = (name: string) => `dialog__${name}__fullscreen`

/** Length of a commit hash as the console shows it. */
export const COMMIT_HASH_LENGTH = 10

// Colour and cursor sequences are not part of what a person searches for.
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[A-Za-z]/g

/** Lines whose text (without colour codes) contains the query, ignoring case. */
export function searchLog(lines: LogLine[], query: string): LogLine[] {
  const needle = query.trim().toLowerCase()
  if (needle === '') return lines
  return lines.filter((line) =>
    line.output.replace(ANSI_SEQUENCE, '').toLowerCase().includes(needle),
  )
}

export function TaskLogDialog({
  projectId,
  taskId,
  onClose,
}: {
  projectId: number
  taskId: number
  onClose: () => void
}) {
  const { t } = useTranslation('tasks')
  const format = useFormat()
  const titleId = useId()
  const [fullscreen, setFullscreen] = useState(
    () => readStorage(fullscreenStorageKey(DIALOG_NAME)) === '1',
  )
  const task = useTask(projectId, taskId)
  const template = useTaskTemplate(projectId, task.data?.template_id)
  const action = useTaskAction(projectId, taskId)
  const [query, setQuery] = useState('')
  // Typing stays responsive on long logs: the filter runs on a deferred copy of the query.
  const deferredQuery = useDeferredValue(query)
  const searching = deferredQuery.trim() !== ''
  const output = useTaskOutputPages(projectId, taskId, { whole: searching })
  const searchable = output.total <= WHOLE_LOG_SEARCH_LIMIT
  useLiveOutput(taskId, output.refresh)
  const logJump = useJumpToLogLine()

  const team = useTeam(projectId)
  const author = team.data?.find((member) => member.id === task.data?.user_id)?.name
  const originNames = useTaskOriginNames(projectId, {
    integrations: task.data?.integration_id != null && task.data.user_id === null,
    schedules: task.data?.schedule_id != null && task.data.user_id === null,
  })
  const { total, lineAt } = output
  const shown = useMemo(
    () => (searching && searchable ? searchLog(loadedLines(total, lineAt), deferredQuery) : null),
    [searching, searchable, total, lineAt, deferredQuery],
  )

  const toggleFullscreen = () => {
    setFullscreen((value) => {
      writeStorage(fullscreenStorageKey(DIALOG_NAME), value ? null : '1')
      return !value
    })
  }

  const status = task.data?.status ?? ''
  const logHeight = fullscreen ? 'calc(100vh - 320px)' : 480
  const actions = taskActions(status)
  const run = (name: TaskAction) => action.mutate(name)
  const commit = task.data?.commit_hash
    ? `${task.data.commit_hash.slice(0, COMMIT_HASH_LENGTH)} ${task.data.commit_message}`
    : null

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullScreen={fullscreen}
      maxWidth={false}
      slotProps={{
        paper: {
          sx: fullscreen
            ? {}
            : { width: TASK_LOG_DIALOG_WIDTH, maxWidth: 'calc(100% - 32px)', m: 2 },
        },
      }}
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <Breadcrumbs sx={{ flexGrow: 1, minWidth: 0 }}>
          {template.data ? (
            <Typography color="text.secondary" noWrap>
              {template.data.name}
            </Typography>
          ) : null}
          <Typography color="text.primary">{t('log.taskNumber', { id: taskId })}</Typography>
        </Breadcrumbs>
        {task.data ? <TaskStatusChip status={status} /> : null}
        <IconButton
          onClick={toggleFullscreen}
          aria-label={fullscreen ? t('actions.collapse') : t('actions.expand')}
        >
          {fullscreen ? <FullscreenExitIcon /> : <FullscreenIcon />}
        </IconButton>
        <IconButton onClick={onClose} aria-label={t('actions.close')}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {task.error ? (
          <ErrorAlert error={task.error} />
        ) : !task.data ? (
          <LoadingState />
        ) : (
          <Stack spacing={2}>
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
                gap: 1,
                fontSize: 14,
              }}
            >
              <Field label={t('log.author')}>
                <TaskOrigin task={task.data} names={originNames} userName={author ?? null} />
              </Field>
              <Field label={t('log.started')} value={format.dateTime(task.data.start)} />
              <Field label={t('log.ended')} value={format.dateTime(task.data.end)} />
              <Field label={t('log.duration')}>
                <TaskDuration start={task.data.start} end={task.data.end} />
              </Field>
              <TaskStartTimings timings={task.data.start_timings} />
              {task.data.message ? (
                <Field label={t('log.message')} value={task.data.message} />
              ) : null}
              {commit ? <Field label={t('log.commit')} value={commit} /> : null}
              {task.data.version ? (
                <Field label={t('log.version')} value={task.data.version} />
              ) : null}
            </Box>
            {actions.stop || actions.confirm ? (
              <Stack direction="row" spacing={1}>
                {actions.confirm ? (
                  <Button
                    variant="contained"
                    color="success"
                    disabled={action.isPending}
                    onClick={() => run('confirm')}
                  >
                    {t('actions.confirm')}
                  </Button>
                ) : null}
                {actions.reject ? (
                  <Button
                    variant="outlined"
                    color="error"
                    disabled={action.isPending}
                    onClick={() => run('reject')}
                  >
                    {t('actions.reject')}
                  </Button>
                ) : null}
                {actions.stop ? (
                  <Button
                    variant="outlined"
                    color="error"
                    disabled={action.isPending}
                    onClick={() => run(actions.force ? 'force' : 'stop')}
                  >
                    {actions.force ? t('actions.forceStop') : t('actions.stop')}
                  </Button>
                ) : null}
              </Stack>
            ) : null}
            {action.error ? <ErrorAlert error={action.error} /> : null}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <TextField
                type="search"
                size="small"
                label={t('log.search')}
                value={query}
                disabled={!searchable}
                helperText={searchable ? undefined : t('log.searchTooLong')}
                onChange={(event) => setQuery(event.target.value)}
                sx={{ flexGrow: 1, maxWidth: 360 }}
              />
              {shown ? (
                <Typography variant="body2" color="text.secondary" role="status">
                  {t('log.matches', { count: shown.length })}
                </Typography>
              ) : null}
              <Box sx={{ flexGrow: 1 }} />
              <Button
                component="a"
                href={`/api/project/${projectId}/tasks/${taskId}/raw_output`}
                download={`task-${taskId}.log`}
                startIcon={<DownloadIcon />}
              >
                {t('log.download')}
              </Button>
            </Stack>
            <TaskLogSearch
              projectId={projectId}
              taskId={taskId}
              onJump={(line) => {
                // The whole log, not the filtered lines, holds the line's place.
                setQuery('')
                requestAnimationFrame(() => logJump.jump(line))
              }}
            />
            {output.error ? <ErrorAlert error={output.error} /> : null}
            <Box ref={logJump.containerRef}>
              {shown ? (
                <TaskLogView
                  count={shown.length}
                  lineAt={(index) => shown[index]}
                  height={logHeight}
                />
              ) : (
                <TaskLogView
                  count={output.total}
                  lineAt={output.lineAt}
                  onRows={output.showRows}
                  height={logHeight}
                />
              )}
            </Box>
          </Stack>
        )}
      </DialogContent>
    </Dialog>
  )
}

/**
 * Reads the log again as its live lines arrive: they only say that there is more, the pages
 * bring the lines themselves (numbered and in order). Batched, so a chatty task costs a
 * count and a page at most every LOG_FLUSH_MS; once more when the task ends.
 */
function useLiveOutput(taskId: number, refresh: () => void) {
  const bufferRef = useRef<LogBuffer | null>(null)
  const refreshRef = useRef(refresh)
  useEffect(() => {
    refreshRef.current = refresh
  })
  useEffect(() => {
    const buffer = new LogBuffer(() => refreshRef.current())
    bufferRef.current = buffer
    buffer.start()
    return () => {
      buffer.stop()
      bufferRef.current = null
    }
  }, [])
  useRealtime((message) => {
    if (message.task_id !== taskId) return
    if (message.type === 'log') bufferRef.current?.push(message)
    else if (isFinished(message.status)) refreshRef.current()
  })
}

/** Every line of a log loaded whole (see `useTaskOutputPages`' `whole`). */
function loadedLines(total: number, lineAt: (row: number) => LogLine | undefined): LogLine[] {
  const lines: LogLine[] = []
  for (let row = 0; row < total; row += 1) {
    const line = lineAt(row)
    if (line) lines.push(line)
  }
  return lines
}

function Field({
  label,
  value,
  children,
}: {
  label: string
  value?: string
  children?: ReactNode
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" noWrap title={value}>
        {children ?? value}
      </Typography>
    </Box>
  )
}
