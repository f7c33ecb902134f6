import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../dialect.js'
import * as m0001 from './202611220001_create_users_and_auth.js'
import * as m0002 from './202611220002_create_projects.js'
import * as m0003 from './202611220003_create_project_resources.js'
import * as m0004 from './202611220004_create_templates_and_tasks.js'
import * as m0005 from './202611220005_create_integrations_and_runners.js'
import * as m0006 from './202611240001_integration_deliveries.js'
import * as m0007 from './202611240002_schedule_runs.js'
import * as m0008 from './202611240003_user_totp_last_step.js'
import * as m0009 from './202611240004_api_token_name_expiry.js'
import * as m0010 from './202611240005_ldap_managed_access.js'
import * as m0011 from './202611240006_runner_queue.js'
import * as m0012 from './202611240007_terraform_backend.js'
import * as m0013 from './202611240008_alert_outbox.js'
import * as m0014 from './202611240009_environment_image.js'
import * as m0015 from './202611250001_history_indexes.js'
import * as m0016 from './202611250002_task_output_lines.js'
import * as m202611250003 from './202611250003_task_start_timings.js'
import * as m202611250004 from './202611250004_task_output_search.js'
import * as m202611250005 from './202611250005_mysql_log_search_table.js'
import * as m202611260001 from './202611260001_server_instances.js'
import * as m202611270001 from './202611270001_task_retention.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
interface MigrationModule {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>
  down(db: Kysely<any>, dialect: Dialect): Promise<void>
  /** false: runs outside a transaction (e.g. PostgreSQL's CREATE INDEX CONCURRENTLY). */
  transaction?: boolean
}

/** Every migration in order. Names are frozen once released. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '202611220001_create_users_and_auth': m0001,
  '202611220002_create_projects': m0002,
  '202611220003_create_project_resources': m0003,
  '202611220004_create_templates_and_tasks': m0004,
  '202611220005_create_integrations_and_runners': m0005,
  '202611240001_integration_deliveries': m0006,
  '202611240002_schedule_runs': m0007,
  '202611240003_user_totp_last_step': m0008,
  '202611240004_api_token_name_expiry': m0009,
  '202611240005_ldap_managed_access': m0010,
  '202611240006_runner_queue': m0011,
  '202611240007_terraform_backend': m0012,
  '202611240008_alert_outbox': m0013,
  '202611240009_environment_image': m0014,
  '202611250001_history_indexes': m0015,
  '202611250002_task_output_lines': m0016,
  '202611250003_task_start_timings': m202611250003,
  '202611250004_task_output_search': m202611250004,
  '202611250005_mysql_log_search_table': m202611250005,
  '202611260001_server_instances': m202611260001,
  '202611270001_task_retention': m202611270001,
}

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [
      name,
      {
        up: (db: Kysely<any>) => m.up(db, dialect),
        down: (db: Kysely<any>) => m.down(db, dialect),
      },
    ]),
  )
}

/** Names of the migrations that must run outside a transaction. */
export function migrationsOutsideTransaction(): Set<string> {
  return new Set(
    Object.entries(MIGRATIONS)
      .filter(([, m]) => m.transaction === false)
      .map(([name]) => name),
  )
}
