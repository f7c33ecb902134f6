import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { NewTaskDialog } from './new-task-dialog'
import { TASK_PARAM } from './task-log-host'

/** Opens the new task dialog of a template; the started task's log opens through `?t=`. */
export function NewTaskButton({
  projectId,
  templateId,
  label,
  variant = 'icon',
}: {
  projectId: number
  templateId: number
  label: string
  variant?: 'icon' | 'button'
}) {
  const [open, setOpen] = useState(false)
  const [, setParams] = useSearchParams()
  return (
    <>
      {variant === 'icon' ? (
        <IconButton aria-label={label} onClick={() => setOpen(true)}>
          <PlayArrowIcon />
        </IconButton>
      ) : (
        <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={() => setOpen(true)}>
          {label}
        </Button>
      )}
      {open ? (
        <NewTaskDialog
          projectId={projectId}
          templateId={templateId}
          onClose={() => setOpen(false)}
          onCreated={(task) => {
            setOpen(false)
            setParams(
              (current) => {
                const next = new URLSearchParams(current)
                next.set(TASK_PARAM, String(task.id))
                return next
              },
              { replace: false },
            )
          }}
        />
      ) : null}
    </>
  )
}
