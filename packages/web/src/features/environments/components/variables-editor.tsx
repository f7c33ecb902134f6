import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import TextField from '@mui/material/TextField'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { jsonProblem } from '../utils/json-problem'
import { jsonToRows, newRowKey, rowsToJson, type VariableRow } from '../utils/variables-table'

type Mode = 'table' | 'json'

export interface VariablesEditorProps {
  /** What the variables are, e.g. "Extra variables". */
  label: string
  /** The variables as JSON text of an object. */
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  /** A validation message of the form, shown under the JSON text. */
  error?: string
}

/**
 * Variables as a table of names and values, or as JSON text. The table is offered only for
 * valid JSON without nested values.
 */
export function VariablesEditor({ label, value, onChange, onBlur, error }: VariablesEditorProps) {
  const { t } = useTranslation('environments')
  const headingId = useId()
  const [mode, setMode] = useState<Mode>(() => (jsonToRows(value).ok ? 'table' : 'json'))
  const [rows, setRows] = useState<VariableRow[]>(() => {
    const conversion = jsonToRows(value)
    return conversion.ok ? conversion.rows : []
  })
  const [refused, setRefused] = useState(false)
  const parseError = mode === 'json' ? jsonProblem(t, value) : null

  const changeRows = (next: VariableRow[]) => {
    setRows(next)
    onChange(rowsToJson(next))
  }

  const switchMode = (next: Mode | null) => {
    if (next === null || next === mode) return
    if (next === 'json') {
      setMode('json')
      return
    }
    const conversion = jsonToRows(value)
    if (!conversion.ok) {
      setRefused(conversion.reason === 'nested')
      return
    }
    setRefused(false)
    setRows(conversion.rows)
    setMode('table')
  }

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h3" sx={{ flexGrow: 1 }}>
          {label}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_, next: Mode | null) => switchMode(next)}
          aria-label={t('editor.mode', { name: label })}
        >
          <ToggleButton value="table" disabled={parseError !== null}>
            {t('editor.table')}
          </ToggleButton>
          <ToggleButton value="json">{t('editor.json')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {refused && mode === 'json' ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('editor.nested')}
        </Alert>
      ) : null}
      {mode === 'json' ? (
        <TextField
          label={t('editor.jsonLabel', { name: label })}
          value={value}
          onChange={(event) => {
            setRefused(false)
            onChange(event.target.value)
          }}
          onBlur={onBlur}
          multiline
          minRows={4}
          maxRows={16}
          fullWidth
          error={Boolean(error ?? parseError)}
          helperText={error ?? parseError ?? ' '}
          slotProps={{
            htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } },
          }}
        />
      ) : (
        <VariablesTable rows={rows} onChange={changeRows} onBlur={onBlur} />
      )}
    </Box>
  )
}

function VariablesTable({
  rows,
  onChange,
  onBlur,
}: {
  rows: readonly VariableRow[]
  onChange: (rows: VariableRow[]) => void
  onBlur?: () => void
}) {
  const { t } = useTranslation('environments')
  const update = (key: number, change: Partial<VariableRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)))

  return (
    <Box>
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('editor.empty')}
        </Typography>
      ) : null}
      {rows.map((row, index) => {
        const missingName = row.name.trim() === '' && row.value !== ''
        return (
          <Box
            key={row.key}
            sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr auto', gap: 1, mb: 1 }}
          >
            <TextField
              size="small"
              label={t('editor.variableName')}
              value={row.name}
              onChange={(event) => update(row.key, { name: event.target.value })}
              onBlur={onBlur}
              error={missingName}
              helperText={missingName ? t('editor.nameMissing') : undefined}
              slotProps={{
                htmlInput: {
                  'aria-label': t('editor.nameOf', { index: index + 1 }),
                  spellCheck: false,
                },
              }}
            />
            <TextField
              size="small"
              label={t('editor.variableValue')}
              value={row.value}
              onChange={(event) => update(row.key, { value: event.target.value })}
              onBlur={onBlur}
              slotProps={{
                htmlInput: {
                  'aria-label': t('editor.valueOf', { index: index + 1 }),
                  spellCheck: false,
                },
              }}
            />
            <IconButton
              aria-label={t('editor.remove', { index: index + 1 })}
              onClick={() => onChange(rows.filter((item) => item.key !== row.key))}
              sx={{ alignSelf: 'start' }}
            >
              <DeleteIcon />
            </IconButton>
          </Box>
        )
      })}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => onChange([...rows, { key: newRowKey(), name: '', value: '' }])}
      >
        {t('editor.add')}
      </Button>
    </Box>
  )
}
