import PersonRemoveIcon from '@mui/icons-material/PersonRemove'
import { PROJECT_ROLES, type ProjectRole, type TeamMember } from '@flagman/contract'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import { useTranslation } from 'react-i18next'
import { roleLabel } from './role-label'

export interface TeamTableProps {
  members: readonly TeamMember[]
  /** Whether the viewer may change roles and remove members. */
  canManage: boolean
  pendingUserId: number | null
  onChangeRole: (member: TeamMember, role: ProjectRole) => void
  onRemove: (member: TeamMember) => void
}

export function TeamTable({
  members,
  canManage,
  pendingUserId,
  onChangeRole,
  onRemove,
}: TeamTableProps) {
  const { t } = useTranslation('team')
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.username')}</TableCell>
              <TableCell>{t('table.role')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map((member) => (
              <TableRow key={member.id} hover>
                <TableCell>{member.name}</TableCell>
                <TableCell>{member.username}</TableCell>
                <TableCell sx={{ minWidth: 150 }}>
                  {canManage ? (
                    <TextField
                      select
                      size="small"
                      variant="standard"
                      value={member.role}
                      disabled={pendingUserId === member.id}
                      onChange={(event) => onChangeRole(member, event.target.value as ProjectRole)}
                      slotProps={{
                        htmlInput: { 'aria-label': t('table.roleOf', { name: member.name }) },
                      }}
                    >
                      {PROJECT_ROLES.map((role) => (
                        <MenuItem key={role} value={role}>
                          {roleLabel(t, role)}
                        </MenuItem>
                      ))}
                    </TextField>
                  ) : (
                    roleLabel(t, member.role)
                  )}
                </TableCell>
                {canManage ? (
                  <TableCell align="right">
                    <Tooltip title={t('table.remove', { name: member.name })}>
                      <IconButton
                        onClick={() => onRemove(member)}
                        aria-label={t('table.remove', { name: member.name })}
                      >
                        <PersonRemoveIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
            {members.length === 0 ? (
              <TableRow>
                <TableCell colSpan={canManage ? 4 : 3} align="center">
                  {t('table.empty')}
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
