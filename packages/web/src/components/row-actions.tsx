import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'

export interface RowActionsProps {
  editLabel: string
  deleteLabel: string
  onEdit: () => void
  onDelete: () => void
  /** The delete is being prepared (e.g. its references are looked up). */
  busy?: boolean
}

/** The edit and delete buttons at the end of a table row. */
export function RowActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
  busy = false,
}: RowActionsProps) {
  return (
    <>
      <Tooltip title={editLabel}>
        <IconButton onClick={onEdit} aria-label={editLabel}>
          <EditIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={deleteLabel}>
        <span>
          <IconButton onClick={onDelete} aria-label={deleteLabel} disabled={busy}>
            <DeleteIcon />
          </IconButton>
        </span>
      </Tooltip>
    </>
  )
}
