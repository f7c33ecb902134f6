import AddIcon from '@mui/icons-material/Add'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'

/**
 * The "New …" button of a page header. On narrow screens only its icon shows, so the page
 * title keeps its room; the label stays its accessible name.
 */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="contained"
      onClick={onClick}
      aria-label={label}
      sx={{ minWidth: { xs: 40, sm: 64 }, px: { xs: 1, sm: 2 } }}
    >
      <AddIcon fontSize="small" />
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' }, ml: 1 }}>
        {label}
      </Box>
    </Button>
  )
}
