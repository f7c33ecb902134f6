import type { ApiToken } from '@flagman/contract'
import BlockIcon from '@mui/icons-material/Block'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'

function formatTime(value: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  )
}

export interface TokensTableProps {
  tokens: readonly ApiToken[]
  onRevoke: (token: ApiToken) => void
}

/** The signed-in user's API tokens: each shown by its name and first characters only. */
export function TokensTable({ tokens, onRevoke }: TokensTableProps) {
  const { t, i18n } = useTranslation('users')
  const time = (value: string | null) =>
    value === null ? t('tokens.never') : formatTime(value, i18n.language)
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('tokens.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('tokens.name')}</TableCell>
              <TableCell>{t('tokens.prefix')}</TableCell>
              <TableCell>{t('tokens.created')}</TableCell>
              <TableCell>{t('tokens.expires')}</TableCell>
              <TableCell>{t('tokens.lastUsed')}</TableCell>
              <TableCell align="right">{t('tokens.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tokens.map((token) => {
              const label = token.name || token.prefix
              return (
                <TableRow key={token.prefix + token.created} hover>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {token.name ? (
                      token.name
                    ) : (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {t('tokens.unnamed')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                    {`${token.prefix}…`}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(token.created)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(token.expires_at)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(token.last_used)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {token.expired ? (
                      <Chip size="small" variant="outlined" label={t('tokens.ended')} />
                    ) : (
                      <Tooltip title={t('tokens.revokeLabel', { name: label })}>
                        <IconButton
                          onClick={() => onRevoke(token)}
                          aria-label={t('tokens.revokeLabel', { name: label })}
                        >
                          <BlockIcon />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
