import type {
  CreateRepositoryBody,
  Refs,
  Repository,
  UpdateRepositoryBody,
} from '@flagman/contract'
import {
  classifyRepositoryUrl,
  REPOSITORY_URL_PASSWORD_MESSAGE,
  repositoryUrlPassword,
  type REPOSITORY_SORT_COLUMNS,
  withoutUrlPassword,
} from '@flagman/contract'
import type { Database, Db, RepositoryTable } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertInProject, assertSameIds, sortDirection } from '../project-scope.js'
import { assertUnused, findRepositoryRefs } from '../references/index.js'

type CreateInput = z.output<typeof CreateRepositoryBody>
type UpdateInput = z.output<typeof UpdateRepositoryBody>
type Row = Selectable<RepositoryTable>

/**
 * A password an older version stored in the URL never leaves the server: the URL is
 * answered without it (tasks still use it, through git's askpass).
 */
function toRepository(row: Row): Repository {
  return {
    id: row.id,
    name: row.name,
    project_id: row.project_id,
    git_url: withoutUrlPassword(row.git_url),
    git_branch: row.git_branch,
    ssh_key_id: row.ssh_key_id,
  }
}

/**
 * URL and branch rules: a recognisable URL that git can not read as an option and that
 * carries no password (passwords belong in the key store), and a branch (not starting with
 * `-`) unless the repository is local.
 */
async function validate(trx: Kysely<Database>, projectId: number, input: CreateInput) {
  if (input.git_url === '') throw new BadRequestError("repository url can't be empty")
  const kind = classifyRepositoryUrl(input.git_url)
  if (!kind) {
    throw new BadRequestError(
      'Incorrect URL: use a local path starting with /, user@host:path, or a git, file, ssh, http or https URL',
    )
  }
  if (repositoryUrlPassword(input.git_url) !== null) {
    throw new BadRequestError(REPOSITORY_URL_PASSWORD_MESSAGE)
  }
  const branch = input.git_branch ?? ''
  if (kind !== 'local' && branch === '')
    throw new BadRequestError("repository branch can't be empty")
  // git would read such a branch as an option.
  if (branch.startsWith('-')) {
    throw new BadRequestError('Incorrect branch: a branch name can not start with "-"')
  }
  await assertInProject(trx, 'access_key', projectId, input.ssh_key_id, 'Access key')
  const key = await trx
    .selectFrom('access_key')
    .select(['owner'])
    .where('id', '=', input.ssh_key_id)
    .executeTakeFirstOrThrow()
  if (key.owner !== '') throw new NotFoundError('Access key')
  return { branch }
}

export async function listRepositories(
  db: Db,
  projectId: number,
  query: { sort: (typeof REPOSITORY_SORT_COLUMNS)[number]; order?: string },
): Promise<Repository[]> {
  const column =
    query.sort === 'ssh_key' ? 'access_key.name' : (`repository.${query.sort}` as const)
  const rows = await db.kysely
    .selectFrom('repository')
    .innerJoin('access_key', 'access_key.id', 'repository.ssh_key_id')
    .selectAll('repository')
    .where('repository.project_id', '=', projectId)
    .orderBy(column, sortDirection(query.order))
    .orderBy('repository.id')
    .execute()
  return rows.map(toRepository)
}

async function findRow(db: Kysely<Database>, projectId: number, id: number): Promise<Row> {
  const row = await db
    .selectFrom('repository')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Repository')
  return row
}

export async function getRepository(db: Db, projectId: number, id: number): Promise<Repository> {
  return toRepository(await findRow(db.kysely, projectId, id))
}

export async function createRepository(
  db: Db,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Repository> {
  assertSameIds(input, { projectId }, 'Repository')
  return db.kysely.transaction().execute(async (trx) => {
    const { branch } = await validate(trx, projectId, input)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'repository', {
      project_id: projectId,
      name: input.name,
      git_url: input.git_url,
      git_branch: branch,
      ssh_key_id: input.ssh_key_id,
      created: nowIso(),
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'repository',
      objectId: id,
      description: `Repository ${withoutUrlPassword(input.git_url)} created`,
    })
    return toRepository(await findRow(trx, projectId, id))
  })
}

export async function updateRepository(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  assertSameIds(input, { projectId, id }, 'Repository')
  await db.kysely.transaction().execute(async (trx) => {
    const stored = await findRow(trx, projectId, id)
    const { branch } = await validate(trx, projectId, input)
    // The URL as answered (without a stored password) keeps the stored password.
    const url =
      input.git_url === withoutUrlPassword(stored.git_url) ? stored.git_url : input.git_url
    await trx
      .updateTable('repository')
      .set({
        name: input.name,
        git_url: url,
        git_branch: branch,
        ssh_key_id: input.ssh_key_id,
      })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'repository',
      objectId: id,
      description: `Repository ${withoutUrlPassword(url)} updated`,
    })
  })
}

export async function repositoryRefs(db: Db, projectId: number, id: number): Promise<Refs> {
  await findRow(db.kysely, projectId, id)
  return findRepositoryRefs(db.kysely, projectId, id)
}

export async function deleteRepository(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await findRow(trx, projectId, id)
    assertUnused(await findRepositoryRefs(trx, projectId, id), 'Repository')
    await trx.deleteFrom('repository').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'repository',
      objectId: id,
      description: `Repository ${withoutUrlPassword(row.git_url)} deleted`,
    })
  })
}
