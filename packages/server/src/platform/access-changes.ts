import type { Db } from '@flagman/db'

/**
 * A change to who may see what, announced by the service that made it once its
 * transaction has committed, so that open connections (the live socket) follow at once
 * instead of at their next periodic check.
 */
export type AccessChange =
  /** The user is no longer a member of the project. */
  | { kind: 'membership-ended'; userId: number; projectId: number }
  /** The project and all its memberships are gone. */
  | { kind: 'project-deleted'; projectId: number }
  /** One session was signed out. */
  | { kind: 'session-ended'; sessionId: number }
  /** These API tokens no longer sign anyone in. */
  | { kind: 'tokens-ended'; tokenIds: number[] }
  /**
   * Every session and API token of the user ended (new password, user deleted), except
   * the session `keepSessionId`, if any.
   */
  | { kind: 'credentials-ended'; userId: number; keepSessionId: number | null }
  /** The user's rights changed in a way that may take something away (admin flag removed). */
  | { kind: 'rights-reduced'; userId: number }

type Listener = (change: AccessChange) => void

/**
 * Listeners per database handle: the server's live socket listens on the server's handle,
 * while the handle of a command-line tool has none (open sockets then follow such changes
 * at their periodic check).
 */
const listeners = new WeakMap<Db, Set<Listener>>()

/** Calls `listener` for every change announced on `db`; returns the function that stops it. */
export function onAccessChange(db: Db, listener: Listener): () => void {
  let set = listeners.get(db)
  if (!set) listeners.set(db, (set = new Set()))
  set.add(listener)
  return () => {
    set.delete(listener)
  }
}

/**
 * Tells the listeners of `db` about a committed change, synchronously: when this returns,
 * they have applied it. A listener that fails does not undo the change or fail the caller.
 */
export function announceAccessChange(db: Db, change: AccessChange): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(change)
    } catch {
      // The periodic check of the listener catches up with the change.
    }
  }
}
