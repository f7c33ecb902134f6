import { hasRefs, type Refs } from '@flagman/contract'
import { useRef, useState } from 'react'

export type SafeDeleteState<T> =
  | { step: 'checking'; item: T }
  | { step: 'references'; item: T; refs: Refs }
  | { step: 'confirm'; item: T }

export interface SafeDelete<T> {
  state: SafeDeleteState<T> | null
  /** Looks up who uses the item, then asks to confirm or shows who uses it. */
  start: (item: T) => void
  close: () => void
}

/**
 * Deleting first asks the server who uses the item: with any reference the references dialog
 * is shown instead; without any, or when the lookup fails, the normal confirmation.
 */
export function useSafeDelete<T>(loadRefs: (item: T) => Promise<Refs>): SafeDelete<T> {
  const [state, setState] = useState<SafeDeleteState<T> | null>(null)
  // Answers of a lookup that was closed or replaced are ignored.
  const run = useRef(0)

  const start = (item: T) => {
    const current = ++run.current
    setState({ step: 'checking', item })
    loadRefs(item).then(
      (refs) => {
        if (run.current !== current) return
        setState(hasRefs(refs) ? { step: 'references', item, refs } : { step: 'confirm', item })
      },
      () => {
        if (run.current === current) setState({ step: 'confirm', item })
      },
    )
  }

  const close = () => {
    run.current++
    setState(null)
  }

  return { state, start, close }
}
