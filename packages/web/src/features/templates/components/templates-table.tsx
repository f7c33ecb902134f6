import type { ReactNode } from 'react'
import type { Environment, Inventory, Repository, Template } from '@flagman/contract'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown'
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight'
import Chip from '@mui/material/Chip'
import Collapse from '@mui/material/Collapse'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
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
import { RowActions } from '../../../components/row-actions'
import { useTemplateLastTasks } from '../api/tasks'
import { TaskStatus } from './task-status'

export const TEMPLATE_COLUMNS = [
  'name',
  'actions',
  'version',
  'status',
  'lastTask',
  'playbook',
  'inventory',
  'environment',
  'repository',
] as const
export type TemplateColumn = (typeof TEMPLATE_COLUMNS)[number]

/** Plain templates first, then build templates, then deploy templates. */
export function groupTemplates(templates: readonly Template[]): Template[] {
  const rank = (type: string) => (type === 'build' ? 1 : type === 'deploy' ? 2 : 0)
  return [...templates].sort((a, b) => rank(a.type) - rank(b.type))
}

export interface TemplatesTableProps {
  projectId: number
  templates: readonly Template[]
  inventories: readonly Inventory[]
  environments: readonly Environment[]
  repositories: readonly Repository[]
  hiddenColumns: readonly string[]
  canManage: boolean
  busyId?: number | null
  templateHref: (template: Template) => string
  onEdit: (template: Template) => void
  onCopy: (template: Template) => void
  onDelete: (template: Template) => void
  /** The run action of a row; the page supplies it (tasks are another feature). */
  renderRun: (template: Template) => ReactNode
}

const DASH = '—'

function LastTasks({ projectId, templateId }: { projectId: number; templateId: number }) {
  const { t } = useTranslation('templates')
  const tasks = useTemplateLastTasks(projectId, templateId, 5)
  if (tasks.isPending) return <Typography variant="body2">…</Typography>
  if (tasks.error || !tasks.data || tasks.data.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('table.noTasks')}
      </Typography>
    )
  }
  return (
    <Table size="small">
      <TableBody>
        {tasks.data.map((task) => (
          <TableRow key={task.id}>
            <TableCell>#{task.id}</TableCell>
            <TableCell>
              <TaskStatus status={task.status} />
            </TableCell>
            <TableCell>{task.version ?? DASH}</TableCell>
            <TableCell>{task.user_name ?? DASH}</TableCell>
            <TableCell>{task.message || task.commit_message || DASH}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

export function TemplatesTable({
  projectId,
  templates,
  inventories,
  environments,
  repositories,
  hiddenColumns,
  canManage,
  busyId = null,
  renderRun,
  templateHref,
  onEdit,
  onCopy,
  onDelete,
}: TemplatesTableProps) {
  const { t } = useTranslation('templates')
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set())
  const shown = TEMPLATE_COLUMNS.filter((column) => !hiddenColumns.includes(column))
  const nameOf = (list: readonly { id: number; name: string }[], id: number | null) =>
    id === null ? DASH : (list.find((item) => item.id === id)?.name ?? DASH)
  const rows = groupTemplates(templates)

  const cell = (template: Template, column: TemplateColumn) => {
    const last = template.last_task
    switch (column) {
      case 'name':
        return (
          <TableCell key={column} sx={{ wordBreak: 'break-word', minWidth: 140 }}>
            <Link component={RouterLink} to={templateHref(template)}>
              {template.name}
            </Link>
            {template.type ? (
              <Chip
                size="small"
                variant="outlined"
                label={t(template.type === 'build' ? 'types.build' : 'types.deploy')}
                sx={{ ml: 1 }}
              />
            ) : null}
          </TableCell>
        )
      case 'actions':
        return (
          <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
            {renderRun(template)}
            {canManage ? (
              <>
                <Tooltip title={t('table.copy', { name: template.name })}>
                  <IconButton
                    aria-label={t('table.copy', { name: template.name })}
                    onClick={() => onCopy(template)}
                  >
                    <ContentCopyIcon />
                  </IconButton>
                </Tooltip>
                <RowActions
                  editLabel={t('table.edit', { name: template.name })}
                  deleteLabel={t('table.delete', { name: template.name })}
                  busy={busyId === template.id}
                  onEdit={() => onEdit(template)}
                  onDelete={() => onDelete(template)}
                />
              </>
            ) : null}
          </TableCell>
        )
      case 'version':
        return <TableCell key={column}>{last?.version ?? DASH}</TableCell>
      case 'status':
        return (
          <TableCell key={column}>{last ? <TaskStatus status={last.status} /> : DASH}</TableCell>
        )
      case 'lastTask':
        return (
          <TableCell key={column}>
            {last ? `#${last.id}${last.user_name ? ` ${last.user_name}` : ''}` : DASH}
          </TableCell>
        )
      case 'playbook':
        return (
          <TableCell key={column} sx={{ wordBreak: 'break-word' }}>
            {template.playbook || DASH}
          </TableCell>
        )
      case 'inventory':
        return <TableCell key={column}>{nameOf(inventories, template.inventory_id)}</TableCell>
      case 'environment':
        return <TableCell key={column}>{nameOf(environments, template.environment_id)}</TableCell>
      case 'repository':
        return <TableCell key={column}>{nameOf(repositories, template.repository_id)}</TableCell>
    }
  }

  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              {shown.map((column) => (
                <TableCell key={column}>{t(`columns.${column}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((template, index) => {
              const open = expanded.has(template.id)
              const previous = rows[index - 1]
              const groupStart = template.type !== '' && previous?.type !== template.type
              const toggle = () =>
                setExpanded((current) => {
                  const next = new Set(current)
                  if (next.has(template.id)) next.delete(template.id)
                  else next.add(template.id)
                  return next
                })
              return (
                <Fragment key={template.id}>
                  {groupStart ? (
                    <TableRow>
                      <TableCell
                        colSpan={shown.length + 1}
                        sx={{ bgcolor: 'action.hover', fontWeight: 600 }}
                      >
                        {t(template.type === 'build' ? 'types.build' : 'types.deploy')}
                      </TableCell>
                    </TableRow>
                  ) : null}
                  <TableRow hover>
                    <TableCell padding="checkbox">
                      <IconButton
                        size="small"
                        aria-expanded={open}
                        aria-label={t(open ? 'table.collapse' : 'table.expand', {
                          name: template.name,
                        })}
                        onClick={toggle}
                      >
                        {open ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
                      </IconButton>
                    </TableCell>
                    {shown.map((column) => cell(template, column))}
                  </TableRow>
                  {open ? (
                    <TableRow>
                      <TableCell colSpan={shown.length + 1} sx={{ py: 0 }}>
                        <Collapse in={open} unmountOnExit>
                          <LastTasks projectId={projectId} templateId={template.id} />
                        </Collapse>
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
