import { useEffect, useState } from 'react'

/** How long typing must pause before the server is asked about an expression. */
export const DEBOUNCE_MS = 400

/** `value` once it has stayed the same for `delay` milliseconds. */
export function useDebouncedValue<T>(value: T, delay = DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay)
    return () => clearTimeout(timer)
  }, [value, delay])
  return debounced
}
