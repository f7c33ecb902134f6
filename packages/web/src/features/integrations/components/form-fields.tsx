import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form'

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
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          inputRef={field.ref}
          label={label}
          required={required}
          autoFocus={autoFocus}
          autoComplete="off"
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? hint}
        />
      )}
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
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          inputRef={field.ref}
          select
          label={label}
          required
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? hint}
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  )
}
