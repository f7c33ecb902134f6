import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createTable, idColumn, NAME, refColumn, SHORT, textType, TIMESTAMP } from './helpers.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect)
  const projectTable = (name: string) =>
    refColumn(idColumn(createTable(db, name, dialect), dialect), 'project_id', 'project')

  await projectTable('environment')
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('password', TEXT)
    .addColumn('json', TEXT, (c) => c.notNull())
    .addColumn('env', TEXT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()

  // Keys of the key store, and environment secrets (owner = 'environment', linked by
  // environment_id). `secret` holds the encrypted secret material.
  await refColumn(projectTable('access_key'), 'environment_id', 'environment', { nullable: true })
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('type', SHORT, (c) => c.notNull())
    .addColumn('owner', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('secret', TEXT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()

  await refColumn(projectTable('repository'), 'ssh_key_id', 'access_key', { onDelete: 'restrict' })
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('git_url', TEXT, (c) => c.notNull())
    .addColumn('git_branch', NAME, (c) => c.notNull().defaultTo(''))
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()

  let inventory = projectTable('inventory')
  inventory = refColumn(inventory, 'ssh_key_id', 'access_key', {
    nullable: true,
    onDelete: 'restrict',
  })
  inventory = refColumn(inventory, 'become_key_id', 'access_key', {
    nullable: true,
    onDelete: 'restrict',
  })
  inventory = refColumn(inventory, 'repository_id', 'repository', {
    nullable: true,
    onDelete: 'restrict',
  })
  await inventory
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('type', SHORT, (c) => c.notNull())
    .addColumn('inventory', TEXT, (c) => c.notNull())
    // Owning template of a terraform/tofu workspace; no foreign key because templates
    // reference inventories too. The templates module clears it on template delete.
    .addColumn('template_id', 'integer')
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()

  await projectTable('view')
    .addColumn('title', NAME, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  for (const table of ['environment', 'access_key', 'repository', 'inventory', 'view']) {
    await db.schema.createIndex(`${table}_project_idx`).on(table).column('project_id').execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['view', 'inventory', 'repository', 'access_key', 'environment']) {
    await db.schema.dropTable(table).execute()
  }
}
