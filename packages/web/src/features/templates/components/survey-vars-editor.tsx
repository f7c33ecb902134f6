import { SURVEY_VAR_TYPES, type SurveyVar, surveyVarProblem } from '@flagman/contract'
import AddIcon from '@mui/icons-material/Add'
import DeleteIcon from '@mui/icons-material/Delete'
import EditIcon from '@mui/icons-material/Edit'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import Chip from '@mui/material/Chip'
import FormControlLabel from '@mui/material/FormControlLabel'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { TFunction } from 'i18next'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'

type SurveyType = (typeof SURVEY_VAR_TYPES)[number]

export function surveyTypeLabel(t: TFunction<'templates'>, type: string): string {
  switch (type) {
    case 'int':
      return t('survey.types.int')
    case 'enum':
      return t('survey.types.enum')
    case 'secret':
      return t('survey.types.secret')
    default:
      return t('survey.types.string')
  }
}

/** The translated text of a rule of `surveyVarProblem`. */
function problemText(t: TFunction<'templates'>, problem: string): string {
  switch (problem) {
    case 'Enumeration must have values.':
      return t('survey.problems.noValues')
    case 'Enumeration values must have unique names.':
      return t('survey.problems.duplicateValues')
    case 'Value name cannot be empty.':
      return t('survey.problems.emptyValueName')
    default:
      return problem
  }
}

const emptyVar: SurveyVar = {
  name: '',
  title: '',
  description: '',
  type: '',
  required: false,
  values: [],
}

interface SurveyVarDialogProps {
  variable: SurveyVar | null
  onClose: () => void
  onSave: (variable: SurveyVar) => void
}

function SurveyVarDialog({ variable, onClose, onSave }: SurveyVarDialogProps) {
  const { t } = useTranslation('templates')
  const { t: tc } = useTranslation()
  const [value, setValue] = useState<SurveyVar>(variable ?? emptyVar)
  const [submitted, setSubmitted] = useState(false)
  const set = (patch: Partial<SurveyVar>) => setValue((current) => ({ ...current, ...patch }))

  const normalised: SurveyVar = {
    ...value,
    name: value.name.trim(),
    title: value.title.trim(),
    values: value.type === 'enum' ? value.values.map((v) => ({ ...v, name: v.name.trim() })) : [],
  }
  const nameError = normalised.name === '' ? t('survey.nameRequired') : null
  const titleError = normalised.title === '' ? t('survey.titleRequired') : null
  const problem = surveyVarProblem(normalised)

  const save = () => {
    setSubmitted(true)
    if (nameError || titleError || problem) return
    onSave(normalised)
  }

  return (
    <AppDialog
      open
      onClose={onClose}
      width={560}
      title={variable ? t('survey.editTitle') : t('survey.newTitle')}
      actions={
        <>
          <Button onClick={onClose}>{tc('actions.cancel')}</Button>
          <Button variant="contained" onClick={save}>
            {tc('actions.save')}
          </Button>
        </>
      }
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t('survey.name')}
          required
          autoFocus
          value={value.name}
          onChange={(event) => set({ name: event.target.value })}
          error={submitted && Boolean(nameError)}
          helperText={submitted ? nameError : undefined}
        />
        <TextField
          label={t('survey.title')}
          required
          value={value.title}
          onChange={(event) => set({ title: event.target.value })}
          error={submitted && Boolean(titleError)}
          helperText={submitted ? titleError : undefined}
        />
        <TextField
          label={t('survey.description')}
          multiline
          minRows={2}
          value={value.description}
          onChange={(event) => set({ description: event.target.value })}
        />
        <TextField
          select
          label={t('survey.type')}
          value={value.type}
          onChange={(event) => set({ type: event.target.value as SurveyType })}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {SURVEY_VAR_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {surveyTypeLabel(t, type)}
            </MenuItem>
          ))}
        </TextField>
        {value.type === 'enum' ? (
          <Stack spacing={1}>
            <Typography variant="subtitle2" component="h3">
              {t('survey.values')}
            </Typography>
            {value.values.map((item, index) => (
              <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField
                  size="small"
                  label={t('survey.valueName')}
                  value={item.name}
                  onChange={(event) =>
                    set({
                      values: value.values.map((v, i) =>
                        i === index ? { ...v, name: event.target.value } : v,
                      ),
                    })
                  }
                  sx={{ flex: 1 }}
                />
                <TextField
                  size="small"
                  label={t('survey.valueValue')}
                  value={item.value}
                  onChange={(event) =>
                    set({
                      values: value.values.map((v, i) =>
                        i === index ? { ...v, value: event.target.value } : v,
                      ),
                    })
                  }
                  sx={{ flex: 1 }}
                />
                <IconButton
                  aria-label={t('survey.removeValue', { index: index + 1 })}
                  onClick={() => set({ values: value.values.filter((_, i) => i !== index) })}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <div>
              <Button
                size="small"
                startIcon={<AddIcon />}
                onClick={() => set({ values: [...value.values, { name: '', value: '' }] })}
              >
                {t('survey.addValue')}
              </Button>
            </div>
          </Stack>
        ) : null}
        <FormControlLabel
          control={
            <Checkbox
              checked={value.required}
              onChange={(event) => set({ required: event.target.checked })}
            />
          }
          label={t('survey.required')}
        />
        {submitted && problem ? <Alert severity="error">{problemText(t, problem)}</Alert> : null}
      </Stack>
    </AppDialog>
  )
}

export interface SurveyVarsEditorProps {
  value: readonly SurveyVar[]
  onChange: (value: SurveyVar[]) => void
}

/** The survey variables a task asks for when it starts. */
export function SurveyVarsEditor({ value, onChange }: SurveyVarsEditorProps) {
  const { t } = useTranslation('templates')
  const [editing, setEditing] = useState<{ index: number | null } | null>(null)
  return (
    <>
      {value.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('survey.empty')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {value.map((variable, index) => (
            <ListItem
              key={`${variable.name}-${index}`}
              disableGutters
              secondaryAction={
                <>
                  <IconButton
                    aria-label={t('survey.edit', { name: variable.name })}
                    onClick={() => setEditing({ index })}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton
                    edge="end"
                    aria-label={t('survey.remove', { name: variable.name })}
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                  >
                    <DeleteIcon />
                  </IconButton>
                </>
              }
            >
              <ListItemText
                primary={
                  <>
                    {variable.title}{' '}
                    <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace' }}>
                      ({variable.name})
                    </Typography>
                  </>
                }
                secondary={
                  <>
                    {surveyTypeLabel(t, variable.type)}
                    {variable.required ? (
                      <Chip
                        component="span"
                        size="small"
                        label={t('survey.requiredChip')}
                        sx={{ ml: 1, height: 18 }}
                      />
                    ) : null}
                  </>
                }
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={() => setEditing({ index: null })}>
          {t('survey.add')}
        </Button>
      </div>
      {editing ? (
        <SurveyVarDialog
          variable={editing.index === null ? null : (value[editing.index] ?? null)}
          onClose={() => setEditing(null)}
          onSave={(variable) => {
            onChange(
              editing.index === null
                ? [...value, variable]
                : value.map((item, i) => (i === editing.index ? variable : item)),
            )
            setEditing(null)
          }}
        />
      ) : null}
    </>
  )
}
