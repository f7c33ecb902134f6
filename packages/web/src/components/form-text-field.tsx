import TextField, { type TextFieldProps } from '@mui/material/TextField'
import type { ReactNode } from 'react'
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form'

/** What the form owns; everything else is the caller's to pass on to the text field. */
type OwnedProps =
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'inputRef' | 'error' | 'helperText'

export type FormTextFieldProps<T extends FieldValues, TOutput = T> = Omit<
  TextFieldProps,
  OwnedProps
> & {
  // The output type is free so forms whose schema transforms their values can pass their control.
  control: Control<T, unknown, TOutput>
  name: Path<T>
  /** Shown under the field while it has no error; the error message takes its place. */
  hint?: ReactNode
}

/**
 * A text field (or, with `select`, a select) bound to one field of a react-hook-form form:
 * its value, changes, blur and focus ref go to the form, and its error shows under it.
 */
export function FormTextField<T extends FieldValues, TOutput = T>({
  control,
  name,
  hint,
  ...props
}: FormTextFieldProps<T, TOutput>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          inputRef={field.ref}
          {...props}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? hint}
        />
      )}
    />
  )
}
