import type { Integration, Template } from '@flagman/contract'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import type { MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate } from 'react-router-dom'
import { RowActions } from '../../../components/row-actions'
import { paths } from '../../../config/paths'
import { authMethodLabel } from '../utils/labels'

export interface IntegrationsTableProps {
  projectId: number
  integrations: readonly Integration[]
  templates: readonly Template[]
  /** Whether the viewer may edit and delete integrations. */
  canManage: boolean
  busyId?: number | null
  onEdit: (integration: Integration) => void
  onDelete: (integration: Integration) => void
}

/** A click on the row opens the integration, unless it was on a link or a button in it. */
function fromControl(event: MouseEvent): boolean {
  return event.target instanceof Element && event.target.closest('a, button') !== null
}

export function IntegrationsTable({
  projectId,
  integrations,
  templates,
  canManage,
  busyId = null,
  onEdit,
  onDelete,
}: IntegrationsTableProps) {
  const { t } = useTranslation('integrations')
  const navigate = useNavigate()
  const templateById = new Map(templates.map((template) => [template.id, template]))
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.template')}</TableCell>
              <TableCell>{t('table.authMethod')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {integrations.map((integration) => {
              const template = templateById.get(integration.template_id)
              const href = paths.projectIntegration.href(projectId, integration.id)
              return (
                <TableRow
                  key={integration.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={(event) => {
                    if (!fromControl(event)) void navigate(href)
                  }}
                >
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    <Link component={RouterLink} to={href}>
                      {integration.name}
                    </Link>
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {template ? (
                      <Link
                        component={RouterLink}
                        to={paths.projectTemplate.href(projectId, template.id)}
                      >
                        {template.name}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell>{authMethodLabel(t, integration.auth_method)}</TableCell>
                  {canManage ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <RowActions
                        editLabel={t('table.edit', { name: integration.name })}
                        deleteLabel={t('table.delete', { name: integration.name })}
                        busy={busyId === integration.id}
                        onEdit={() => onEdit(integration)}
                        onDelete={() => onDelete(integration)}
                      />
                    </TableCell>
                  ) : null}
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
