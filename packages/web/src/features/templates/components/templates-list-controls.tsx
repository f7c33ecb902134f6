import ChevronLeftIcon from '@mui/icons-material/ChevronLeft'
import ChevronRightIcon from '@mui/icons-material/ChevronRight'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TEMPLATE_PAGE_SIZES, type TemplateListParams } from '../utils/list-params'

/** How long typing pauses before the list is searched. */
const SEARCH_DELAY_MS = 300

/** Search field, page size and page links of the template list. */
export function TemplatesListControls({
  params,
  shown,
  hasNext,
  onChange,
}: {
  params: TemplateListParams
  /** Templates on the current page. */
  shown: number
  hasNext: boolean
  onChange: (next: TemplateListParams) => void
}) {
  const { t } = useTranslation('templates')
  const [draft, setDraft] = useState(params.search)
  // The search last asked for, or last read from the address: when the address says
  // something else (back, a link), the field follows it; its own answers do not reset it.
  const [known, setKnown] = useState(params.search)
  if (params.search !== known) {
    setKnown(params.search)
    setDraft(params.search)
  }

  useEffect(() => {
    if (draft === known) return
    const timer = setTimeout(() => {
      setKnown(draft)
      onChange({ ...params, search: draft, page: 0 })
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [draft, known, params, onChange])

  const first = params.page * params.size + 1
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
      <TextField
        type="search"
        size="small"
        label={t('list.search')}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 255 } }}
        sx={{ flexGrow: 1, maxWidth: 360 }}
      />
      <TextField
        select
        size="small"
        label={t('list.pageSize')}
        value={params.size}
        onChange={(event) => onChange({ ...params, size: Number(event.target.value), page: 0 })}
        sx={{ minWidth: 110 }}
      >
        {TEMPLATE_PAGE_SIZES.map((size) => (
          <MenuItem key={size} value={size}>
            {size}
          </MenuItem>
        ))}
      </TextField>
      {params.page > 0 || hasNext ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <IconButton
            aria-label={t('list.previous')}
            disabled={params.page === 0}
            onClick={() => onChange({ ...params, page: params.page - 1 })}
          >
            <ChevronLeftIcon />
          </IconButton>
          <Typography variant="body2" role="status">
            {shown > 0 ? t('list.range', { from: first, to: first + shown - 1 }) : null}
          </Typography>
          <IconButton
            aria-label={t('list.next')}
            disabled={!hasNext}
            onClick={() => onChange({ ...params, page: params.page + 1 })}
          >
            <ChevronRightIcon />
          </IconButton>
        </Stack>
      ) : null}
    </Stack>
  )
}
