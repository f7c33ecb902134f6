import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * MariaDB/MySQL: the FULLTEXT index leaves task_output for a table of its own, filled by the
 * server in the background from finished tasks. InnoDB maintains a FULLTEXT index at every
 * commit, which made storing a live log cost twice its floor; now storing a line touches
 * only task_output, and a task's lines are copied once, after it ended, while nothing else
 * waits on them. `task.log_indexed_through` is the id of a task's last line copied (0: not
 * yet); searches scan the lines past it. SQLite (FTS5 filled in the background) and PostgreSQL (pg_trgm) are unchanged.
 */

export const transaction = false

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'mysql') return
  await sql`create table if not exists task_output_search (
      id integer not null primary key,
      task_id integer not null,
      line integer null,
      time varchar(32) not null,
      output mediumtext not null,
      key task_output_search_task_idx (task_id),
      fulltext key task_output_search_output_idx (output),
      constraint task_output_search_task_fk foreign key (task_id) references task (id)
        on delete cascade
    ) default character set utf8mb4 collate utf8mb4_unicode_ci`.execute(db)
  const columns = await sql<{ n: number }>`select count(*) as n from information_schema.columns
    where table_schema = database() and table_name = 'task' and column_name = 'log_indexed_through'`.execute(
    db,
  )
  if (Number(columns.rows[0]?.n ?? 0) === 0) {
    await sql`alter table task add column log_indexed_through integer not null default 0,
      add index task_log_indexed_idx (log_indexed_through, id)`.execute(db)
  }
  const indexes = await sql<{ n: number }>`select count(*) as n from information_schema.statistics
    where table_schema = database() and table_name = 'task_output'
      and index_name = 'task_output_output_search_idx'`.execute(db)
  if (Number(indexes.rows[0]?.n ?? 0) > 0) {
    await sql`alter table task_output drop index task_output_output_search_idx`.execute(db)
  }
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'mysql') return
  await sql`alter table task_output add fulltext index task_output_output_search_idx (output)`.execute(
    db,
  )
  await sql`alter table task drop index task_log_indexed_idx, drop column log_indexed_through`.execute(
    db,
  )
  await sql`drop table if exists task_output_search`.execute(db)
}
