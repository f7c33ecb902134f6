import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import {
  binaryType,
  createTable,
  idColumn,
  NAME,
  refColumn,
  SHORT,
  textType,
  TIMESTAMP,
} from './helpers.js'

/*
 * The Terraform/OpenTofu HTTP backend:
 * - `terraform_alias`: addresses of a workspace (inventory). A user alias is guarded by a
 *   login_password key; a task alias (`task_id`) lives while its task runs and is guarded by a
 *   random password kept only as a SHA-256 digest.
 * - `terraform_state`: every stored state version with Terraform's serial and lineage, its
 *   size, its digest and who wrote it. The compressed text is split into `terraform_state_chunk`
 *   rows of at most 4 MiB, so a 50 MB state fits databases whose packets stop at 16 MiB.
 * - `terraform_lock`: at most one lock per workspace (the primary key makes a race for it
 *   have exactly one winner), with the holder's lock information as Terraform sent it.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let alias = refColumn(
    refColumn(
      idColumn(createTable(db, 'terraform_alias', dialect), dialect),
      'project_id',
      'project',
    ),
    'inventory_id',
    'inventory',
  )
  alias = refColumn(alias, 'auth_key_id', 'access_key', { nullable: true, onDelete: 'set null' })
  alias = refColumn(alias, 'task_id', 'task', { nullable: true })
  await alias
    .addColumn('alias', SHORT, (c) => c.notNull().unique())
    .addColumn('secret_digest', SHORT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('terraform_alias_inventory_idx')
    .on('terraform_alias')
    .columns(['inventory_id', 'task_id'])
    .execute()

  let state = refColumn(
    refColumn(
      idColumn(createTable(db, 'terraform_state', dialect), dialect),
      'project_id',
      'project',
    ),
    'inventory_id',
    'inventory',
  )
  state = refColumn(state, 'task_id', 'task', { nullable: true, onDelete: 'set null' })
  state = refColumn(state, 'alias_id', 'terraform_alias', { nullable: true, onDelete: 'set null' })
  state = refColumn(state, 'user_id', 'user', { nullable: true, onDelete: 'set null' })
  await state
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('serial', 'bigint')
    .addColumn('lineage', NAME)
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('digest', SHORT, (c) => c.notNull())
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('terraform_state_inventory_idx')
    .on('terraform_state')
    .columns(['inventory_id', 'id'])
    .execute()

  await refColumn(createTable(db, 'terraform_state_chunk', dialect), 'state_id', 'terraform_state')
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', binaryType(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('terraform_state_chunk_pk', ['state_id', 'seq'])
    .execute()

  let lock = createTable(db, 'terraform_lock', dialect).addColumn('inventory_id', 'integer', (c) =>
    c.primaryKey().references('inventory.id').onDelete('cascade'),
  )
  lock = refColumn(lock, 'project_id', 'project')
  lock = refColumn(lock, 'task_id', 'task', { nullable: true, onDelete: 'set null' })
  lock = refColumn(lock, 'alias_id', 'terraform_alias', { nullable: true, onDelete: 'set null' })
  await lock
    .addColumn('lock_id', NAME, (c) => c.notNull())
    .addColumn('info', textType(dialect), (c) => c.notNull())
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  for (const table of [
    'terraform_lock',
    'terraform_state_chunk',
    'terraform_state',
    'terraform_alias',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
