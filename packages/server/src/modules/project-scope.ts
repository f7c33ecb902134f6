import type { Database } from '@flagman/db'
import type { Kysely } from 'kysely'
import { BadRequestError, NotFoundError } from '../platform/errors.js'

type ProjectTable = 'access_key' | 'repository' | 'inventory' | 'environment' | 'view' | 'template'

/**
 * Checks that an id named in a request body belongs to the project; an id of another
 * project answers exactly like one that does not exist.
 */
export async function assertInProject(
  db: Kysely<Database>,
  table: ProjectTable,
  projectId: number,
  id: number,
  what: string,
): Promise<void> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError(what)
}

/** The compatible API insists that ids repeated in the body match the URL. */
export function assertSameIds(
  body: { id?: unknown; project_id?: unknown },
  url: { id?: number; projectId: number },
  what: string,
): void {
  if (body.project_id !== undefined && body.project_id !== url.projectId) {
    throw new BadRequestError('Project ID in body and URL must be the same')
  }
  if (url.id !== undefined && body.id !== url.id) {
    throw new BadRequestError(`${what} ID in body and URL must be the same`)
  }
}

export function sortDirection(order: string | undefined): 'asc' | 'desc' {
  return order === 'desc' ? 'desc' : 'asc'
}
