import MenuItem from '@mui/material/MenuItem'
import { type Control, type FieldValues, type Path } from 'react-hook-form'
import { FormTextField } from '../../../components/form-text-field'

interface FieldProps<T extends FieldValues> {
  control: Control<T>
  name: Path<T>
  label: string
  hint?: string
}

/** A text field of a rule form; the error replaces the hint. */
export function TextInputField<T extends FieldValues>({
  control,
  name,
  label,
  hint,
  required = false,
  autoFocus = false,
}: FieldProps<T> & { required?: boolean; autoFocus?: boolean }) {
  return (
    <FormTextField
      control={control}
      name={name}
      label={label}
      required={required}
      autoFocus={autoFocus}
      autoComplete="off"
      fullWidth
      hint={hint}
    />
  )
}

/** A required select of a rule form. */
export function SelectField<T extends FieldValues>({
  control,
  name,
  label,
  hint,
  options,
}: FieldProps<T> & { options: readonly { value: string; label: string }[] }) {
  return (
    <FormTextField
      control={control}
      name={name}
      select
      label={label}
      required
      fullWidth
      hint={hint}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </FormTextField>
  )
}
