import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import {
  boolColumn,
  createTable,
  idColumn,
  NAME,
  refColumn,
  SHORT,
  textType,
  TIMESTAMP,
} from './helpers.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect)
  const projectTable = (name: string) =>
    refColumn(idColumn(createTable(db, name, dialect), dialect), 'project_id', 'project')

  let template = projectTable('template')
  template = refColumn(template, 'inventory_id', 'inventory', {
    nullable: true,
    onDelete: 'restrict',
  })
  template = refColumn(template, 'repository_id', 'repository', {
    nullable: true,
    onDelete: 'restrict',
  })
  template = refColumn(template, 'environment_id', 'environment', {
    nullable: true,
    onDelete: 'restrict',
  })
  template = refColumn(template, 'view_id', 'view', { nullable: true, onDelete: 'set null' })
  for (const flag of ['allow_override_args_in_task', 'autorun', 'suppress_success_alerts']) {
    template = boolColumn(template, flag)
  }
  await template
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('description', TEXT)
    .addColumn('type', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('app', SHORT, (c) => c.notNull().defaultTo('ansible'))
    .addColumn('playbook', TEXT, (c) => c.notNull())
    .addColumn('arguments', TEXT)
    .addColumn('build_template_id', 'integer')
    .addColumn('start_version', NAME)
    .addColumn('git_branch', NAME)
    .addColumn('survey_vars', TEXT)
    .addColumn('task_params', TEXT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()

  await refColumn(
    refColumn(projectTable('template_vault'), 'template_id', 'template'),
    'vault_key_id',
    'access_key',
    { nullable: true, onDelete: 'cascade' },
  )
    .addColumn('name', NAME)
    .addColumn('type', SHORT, (c) => c.notNull().defaultTo('password'))
    .addColumn('script', TEXT)
    .execute()

  await boolColumn(
    refColumn(
      refColumn(projectTable('schedule'), 'template_id', 'template'),
      'repository_id',
      'repository',
      { nullable: true, onDelete: 'set null' },
    )
      .addColumn('name', NAME, (c) => c.notNull().defaultTo(''))
      .addColumn('cron_format', NAME, (c) => c.notNull())
      .addColumn('last_commit_hash', SHORT)
      .addColumn('created', TIMESTAMP, (c) => c.notNull()),
    'active',
  ).execute()

  let task = refColumn(projectTable('task'), 'template_id', 'template')
  for (const flag of ['debug', 'dry_run', 'diff']) task = boolColumn(task, flag)
  await task
    .addColumn('status', SHORT, (c) => c.notNull())
    .addColumn('playbook', TEXT)
    .addColumn('environment', TEXT)
    .addColumn('arguments', TEXT)
    .addColumn('hosts_limit', TEXT)
    .addColumn('git_branch', NAME)
    .addColumn('message', TEXT)
    .addColumn('user_id', 'integer')
    .addColumn('integration_id', 'integer')
    .addColumn('schedule_id', 'integer')
    .addColumn('runner_id', 'integer')
    .addColumn('build_task_id', 'integer')
    .addColumn('inventory_id', 'integer')
    .addColumn('version', NAME)
    .addColumn('commit_hash', SHORT)
    .addColumn('commit_message', TEXT)
    .addColumn('params', TEXT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('start', TIMESTAMP)
    .addColumn('end', TIMESTAMP)
    .execute()
  await db.schema.createIndex('task_project_idx').on('task').columns(['project_id', 'id']).execute()
  await db.schema
    .createIndex('task_template_idx')
    .on('task')
    .columns(['template_id', 'id'])
    .execute()
  await db.schema.createIndex('task_status_idx').on('task').column('status').execute()

  await refColumn(idColumn(createTable(db, 'task_output', dialect), dialect), 'task_id', 'task')
    .addColumn('time', TIMESTAMP, (c) => c.notNull())
    .addColumn('output', TEXT, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('task_output_task_idx')
    .on('task_output')
    .columns(['task_id', 'id'])
    .execute()

  for (const table of ['template', 'schedule']) {
    await db.schema.createIndex(`${table}_project_idx`).on(table).column('project_id').execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['task_output', 'task', 'schedule', 'template_vault', 'template']) {
    await db.schema.dropTable(table).execute()
  }
}
