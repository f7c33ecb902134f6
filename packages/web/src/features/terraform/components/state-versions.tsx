import type { TerraformState } from '@flagman/contract'
import CompareArrowsIcon from '@mui/icons-material/CompareArrows'
import DeleteIcon from '@mui/icons-material/Delete'
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown'
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight'
import RestoreIcon from '@mui/icons-material/Restore'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { Fragment, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useFormat } from '../../../lib/format'
import { Section } from '../../integrations/components/section'
import { taskSearch } from '../../tasks/components/task-log-host'
import { STATES_PAGE_SIZE, useTerraformStateMutations, useTerraformStates } from '../api/states'
import { shortLineage } from '../utils/backend-config'
import { formatSize } from '../utils/format-size'
import { StateContent } from './state-content'
import { StateDiffDialog } from './state-diff-dialog'

type Pending = { kind: 'restore' | 'delete'; state: TerraformState } | null

/** Terraform's own counters are left out on small screens; the state text still has them. */
const wide = { display: { xs: 'none', md: 'table-cell' } } as const

/** Who wrote a version: a task (a link to its log), an alias, or a restore by someone. */
function Origin({ state }: { state: TerraformState }) {
  const { t } = useTranslation('templates')
  if (state.source === 'restore') {
    return (
      <>
        {t('terraform.states.restored', {
          name: state.user_name ?? t('terraform.states.someone'),
          id: state.restored_from ?? '?',
        })}
      </>
    )
  }
  if (state.source === 'alias') return <>{t('terraform.states.alias')}</>
  if (state.task_id === null) return <>{t('terraform.states.taskGone')}</>
  return (
    <Link
      component={RouterLink}
      to={{ search: taskSearch(state.task_id) }}
      aria-label={t('terraform.states.openTask', { id: state.task_id })}
    >
      {t('terraform.states.task', { id: state.task_id })}
    </Link>
  )
}

/**
 * The stored versions of a workspace's state, newest first, a page at a time. Each expands to
 * show its text; any two can be compared; managers restore an older one (not while the state
 * is locked) or delete one.
 */
export function StateVersions({
  projectId,
  inventoryId,
  locked,
  canManage,
}: {
  projectId: number
  inventoryId: number
  /** Restoring waits until nobody holds the lock. */
  locked: boolean
  canManage: boolean
}) {
  const { t } = useTranslation('templates')
  const format = useFormat()
  const { showMessage } = useSnackbar()
  const [limit, setLimit] = useState(STATES_PAGE_SIZE)
  const states = useTerraformStates(projectId, inventoryId, limit)
  const mutations = useTerraformStateMutations(projectId, inventoryId)
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set())
  const [pending, setPending] = useState<Pending>(null)
  const [diff, setDiff] = useState<{ from: number | null; to: number | null } | null>(null)
  const list = states.data ?? []
  // A full page means there may be older versions.
  const more = list.length >= limit

  const toggle = (id: number) =>
    setExpanded((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  const close = () => {
    setPending(null)
    mutations.restore.reset()
    mutations.remove.reset()
  }

  const confirm = () => {
    if (!pending) return
    const { state } = pending
    if (pending.kind === 'restore') {
      mutations.restore.mutate(state, {
        onSuccess: (created) => {
          showMessage(t('terraform.states.restoredMessage', { id: state.id, newId: created.id }))
          close()
        },
      })
    } else {
      mutations.remove.mutate(state, {
        onSuccess: () => {
          showMessage(t('terraform.states.deleted', { id: state.id }))
          close()
        },
      })
    }
  }

  return (
    <Section
      title={t('terraform.states.title')}
      actions={
        list.length > 1 ? (
          <Button
            startIcon={<CompareArrowsIcon />}
            onClick={() => setDiff({ from: list[1]?.id ?? null, to: list[0]?.id ?? null })}
          >
            {t('terraform.states.compare')}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={states.error} />
      {states.isPending ? <LoadingState /> : null}
      {states.data && list.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 1 }}>
          {t('terraform.states.empty')}
        </Typography>
      ) : null}
      {list.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-label={t('terraform.states.title')}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                <TableCell>{t('terraform.states.version')}</TableCell>
                <TableCell>{t('terraform.states.created')}</TableCell>
                <TableCell sx={wide}>{t('terraform.states.serial')}</TableCell>
                <TableCell sx={wide}>{t('terraform.states.lineage')}</TableCell>
                <TableCell>{t('terraform.states.size')}</TableCell>
                <TableCell>{t('terraform.states.writtenBy')}</TableCell>
                <TableCell align="right">{t('terraform.states.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((state, index) => {
                const open = expanded.has(state.id)
                const previous = list[index + 1]
                return (
                  <Fragment key={state.id}>
                    <TableRow hover>
                      <TableCell padding="checkbox">
                        <IconButton
                          size="small"
                          aria-expanded={open}
                          aria-label={t(
                            open ? 'terraform.states.collapse' : 'terraform.states.expand',
                            { id: state.id },
                          )}
                          onClick={() => toggle(state.id)}
                        >
                          {open ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
                        </IconButton>
                      </TableCell>
                      <TableCell>#{state.id}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {format.dateTime(state.created)}
                      </TableCell>
                      <TableCell sx={wide}>{state.serial ?? '—'}</TableCell>
                      <TableCell sx={wide}>
                        {state.lineage ? (
                          <Tooltip title={state.lineage} describeChild>
                            <Box component="span" tabIndex={0} sx={{ fontFamily: 'monospace' }}>
                              {shortLineage(state.lineage)}
                            </Box>
                          </Tooltip>
                        ) : (
                          '—'
                        )}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {formatSize(state.size, format.language)}
                      </TableCell>
                      <TableCell>
                        <Origin state={state} />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <Tooltip title={t('terraform.states.comparePrevious', { id: state.id })}>
                          <span>
                            <IconButton
                              aria-label={t('terraform.states.comparePrevious', { id: state.id })}
                              disabled={!previous}
                              onClick={() =>
                                previous && setDiff({ from: previous.id, to: state.id })
                              }
                            >
                              <CompareArrowsIcon fontSize="small" />
                            </IconButton>
                          </span>
                        </Tooltip>
                        {canManage ? (
                          <>
                            <Tooltip
                              title={
                                locked
                                  ? t('terraform.states.restoreLocked')
                                  : t('terraform.states.restoreVersion', { id: state.id })
                              }
                            >
                              <span>
                                <IconButton
                                  aria-label={t('terraform.states.restoreVersion', {
                                    id: state.id,
                                  })}
                                  disabled={locked}
                                  onClick={() => setPending({ kind: 'restore', state })}
                                >
                                  <RestoreIcon fontSize="small" />
                                </IconButton>
                              </span>
                            </Tooltip>
                            <Tooltip title={t('terraform.states.delete', { id: state.id })}>
                              <IconButton
                                aria-label={t('terraform.states.delete', { id: state.id })}
                                onClick={() => setPending({ kind: 'delete', state })}
                              >
                                <DeleteIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                          </>
                        ) : null}
                      </TableCell>
                    </TableRow>
                    {open ? (
                      <TableRow>
                        <TableCell colSpan={8} sx={{ py: 0, maxWidth: 0 }}>
                          <StateContent
                            projectId={projectId}
                            inventoryId={inventoryId}
                            stateId={state.id}
                          />
                        </TableCell>
                      </TableRow>
                    ) : null}
                  </Fragment>
                )
              })}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {more ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', pt: 1 }}>
          <Button
            loading={states.isPlaceholderData}
            onClick={() => setLimit((current) => current + STATES_PAGE_SIZE)}
          >
            {t('terraform.states.showMore')}
          </Button>
        </Box>
      ) : null}
      {pending ? (
        <ConfirmDialog
          open
          title={
            pending.kind === 'restore'
              ? t('terraform.states.restoreTitle')
              : t('terraform.states.deleteTitle')
          }
          text={
            pending.kind === 'restore'
              ? t('terraform.states.restoreText', { id: pending.state.id })
              : t('terraform.states.deleteText', { id: pending.state.id })
          }
          confirmLabel={pending.kind === 'restore' ? t('terraform.states.restore') : undefined}
          destructive={pending.kind === 'delete'}
          pending={mutations.restore.isPending || mutations.remove.isPending}
          error={mutations.restore.error ?? mutations.remove.error}
          onClose={close}
          onConfirm={confirm}
        />
      ) : null}
      {diff ? (
        <StateDiffDialog
          projectId={projectId}
          inventoryId={inventoryId}
          versions={list}
          initialFrom={diff.from}
          initialTo={diff.to}
          onClose={() => setDiff(null)}
        />
      ) : null}
    </Section>
  )
}
