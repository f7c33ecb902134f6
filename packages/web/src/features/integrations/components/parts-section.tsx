import AddIcon from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { UseMutationResult } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { RowActions } from '../../../components/row-actions'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { getErrorText } from '../../../lib/error-text'
import { Section } from './section'

/** A part of an integration listed on its page: a matcher or an extracted value. */
interface Part {
  id: number
  name: string
}

export interface PartColumn<T> {
  header: string
  cell: (item: T) => ReactNode
  /** Long free text that may break anywhere. */
  wrap?: boolean
}

export interface PartsSectionProps<T extends Part> {
  /** The texts' key prefix in the `integrations` namespace. */
  kind: 'matchers' | 'values'
  text?: ReactNode
  canManage: boolean
  items: { data?: T[]; error: unknown; isPending: boolean }
  remove: UseMutationResult<T, Error, T>
  columns: PartColumn<T>[]
  /** The new/edit dialog: `item` null creates one. */
  dialog: (props: { open: boolean; item: T | null; onClose: () => void }) => ReactNode
}

/**
 * The table of an integration's matchers or extracted values, with its add button, edit
 * dialog, deletion after confirmation, and its empty, loading and error states.
 */
export function PartsSection<T extends Part>({
  kind,
  text,
  canManage,
  items,
  remove,
  columns,
  dialog,
}: PartsSectionProps<T>) {
  const { t } = useTranslation('integrations')
  const { showMessage } = useSnackbar()
  const [editing, setEditing] = useState<{ item: T | null } | null>(null)
  const [deleting, setDeleting] = useState<T | null>(null)

  return (
    <Section
      title={t(`${kind}.title`)}
      text={text}
      actions={
        canManage ? (
          <Button startIcon={<AddIcon />} onClick={() => setEditing({ item: null })}>
            {t(`${kind}.add`)}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={items.error} />
      {items.data ? (
        items.data.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 1 }}>{t(`${kind}.empty`)}</Typography>
        ) : (
          <TableContainer tabIndex={canManage ? undefined : 0}>
            <Table size="small" aria-label={t(`${kind}.title`)}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell key={column.header}>{column.header}</TableCell>
                  ))}
                  {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
                </TableRow>
              </TableHead>
              <TableBody>
                {items.data.map((item) => (
                  <TableRow key={item.id} hover>
                    {columns.map((column) => (
                      <TableCell
                        key={column.header}
                        sx={column.wrap ? { wordBreak: 'break-word' } : undefined}
                      >
                        {column.cell(item)}
                      </TableCell>
                    ))}
                    {canManage ? (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <RowActions
                          editLabel={t(`${kind}.edit`, { name: item.name })}
                          deleteLabel={t(`${kind}.delete`, { name: item.name })}
                          onEdit={() => setEditing({ item })}
                          onDelete={() => setDeleting(item)}
                        />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )
      ) : items.isPending ? (
        <LoadingState />
      ) : null}
      {canManage ? (
        <>
          {dialog({
            open: editing !== null,
            item: editing?.item ?? null,
            onClose: () => setEditing(null),
          })}
          <ConfirmDialog
            open={deleting !== null}
            title={t(`${kind}.deleteTitle`)}
            text={deleting ? t(`${kind}.deleteText`, { name: deleting.name }) : ''}
            pending={remove.isPending}
            onClose={() => setDeleting(null)}
            onConfirm={() => {
              if (!deleting) return
              remove.mutate(deleting, {
                onSuccess: (deleted) => {
                  showMessage(t(`${kind}.deleted`, { name: deleted.name }))
                  setDeleting(null)
                },
                onError: (error) => {
                  showMessage(getErrorText(error), 'error')
                  setDeleting(null)
                },
              })
            }}
          />
        </>
      ) : null}
    </Section>
  )
}
