import Breadcrumbs from '@mui/material/Breadcrumbs'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { Link as RouterLink } from 'react-router-dom'

export interface DetailTitleProps {
  /** Names the breadcrumb trail for screen readers. */
  label: string
  listHref: string
  listTitle: string
  /** The name of the item the page shows. */
  name: string
}

/**
 * The title of an item's own page: a link back to its list, then the item's name. On narrow
 * screens only the name is shown, cut to fit.
 */
export function DetailTitle({ label, listHref, listTitle, name }: DetailTitleProps) {
  return (
    <Breadcrumbs
      aria-label={label}
      sx={{
        fontSize: 'inherit',
        '& .MuiBreadcrumbs-ol': { flexWrap: 'nowrap' },
        '& .MuiBreadcrumbs-li:first-of-type': { display: { xs: 'none', sm: 'list-item' } },
        '& .MuiBreadcrumbs-separator': { display: { xs: 'none', sm: 'flex' } },
        '& .MuiBreadcrumbs-li': { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
      }}
    >
      <Link component={RouterLink} to={listHref} color="inherit" underline="hover">
        {listTitle}
      </Link>
      <Typography
        component="span"
        variant="h6"
        noWrap
        sx={{ color: 'text.primary', display: 'block' }}
        aria-current="page"
      >
        {name}
      </Typography>
    </Breadcrumbs>
  )
}
