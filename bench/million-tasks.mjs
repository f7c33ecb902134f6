// Fills a PostgreSQL database of its own with a large history: projects, templates, users,
// tasks, activity events and log lines, in bulk SQL (INSERT … SELECT generate_series), not
// through the API. The schema is the server's own: `bin/flagman migrate` creates it, and a
// first start of the server creates the administrator the latency benchmark signs in as.
//
//   node bench/million-tasks.mjs                      1,000,000 tasks, 100,000,000 lines
//   BENCH_TASKS=100000 BENCH_LINES=10000000 node bench/million-tasks.mjs
//
// BENCH_PROJECTS (100), BENCH_TEMPLATES (10 per project), BENCH_DB_NAME (bench_million),
// BENCH_INDEX_MEMORY (1GB): maintenance_work_mem while the indexes are rebuilt.
// BENCH_KEEP=1 keeps the database afterwards (bench/million-latency.mjs measures it);
// otherwise it is dropped. FLAGMAN_BIN: another build's bin/flagman. FLAGMAN_TEST_POSTGRES_URL:
// the server to use (its `postgres` database is only used to create and drop the scratch one).
// The shared `test` database is never touched.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const BENCH_ADMIN = { login: 'admin', password: 'bench-million-password' }
/** One task gets a log this long (or all the lines, when fewer are asked for). */
const LONG_LOG_LINES = 1_000_000
/** Marks the task with the long log, so that the latency benchmark finds it. */
export const LONG_LOG_MESSAGE = 'bench: the long log'
/** Tasks left unfinished at the newest end of the history, for the active-tasks list. */
const ACTIVE_TASKS = 8
const LINES_PER_STATEMENT = 5_000_000

const ADMIN_URL = (() => {
  const url = new URL(
    process.env.FLAGMAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  url.pathname = '/postgres'
  return url
})()

export function databaseUrl(name) {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

function checkName(name) {
  if (!/^bench_[a-z0-9_]{1,40}$/.test(name)) {
    throw new Error(`The scratch database name must look like bench_<something>, not ${name}`)
  }
  return name
}

async function withAdmin(fn) {
  const admin = new pg.Client({ connectionString: ADMIN_URL.toString() })
  await admin.connect()
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

export const dropDatabase = (name) =>
  withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`))

export async function databaseExists(name) {
  return withAdmin(async (c) => {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [checkName(name)])
    return r.rowCount > 0
  })
}

function flagmanBin() {
  return process.env.FLAGMAN_BIN ?? join(ROOT, 'bin/flagman')
}

/** Runs `bin/flagman <args>` against the database; resolves with its output. */
function runFlagman(args, env, until) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [flagmanBin(), ...args], {
      env: { ...process.env, FLAGMAN_LOG_LEVEL: 'info', ...env },
      stdio: 'pipe',
    })
    let log = ''
    const onData = (chunk) => {
      log += chunk
      if (until && until.test(log)) child.kill('SIGTERM')
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (code === 0 || (until && until.test(log) && signal === 'SIGTERM') || until?.test(log)) {
        resolve(log)
      } else reject(new Error(`flagman ${args.join(' ')} failed (${code ?? signal}):\n${log}`))
    })
  })
}

/** Schema by the server's migrations, then the first administrator by a first start. */
async function createSchema(url) {
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-million-'))
  const env = {
    FLAGMAN_DB: url,
    FLAGMAN_DATA_DIR: dataDir,
    FLAGMAN_HOST: '127.0.0.1',
    FLAGMAN_PORT: '0',
    FLAGMAN_ADMIN_LOGIN: BENCH_ADMIN.login,
    FLAGMAN_ADMIN_PASSWORD: BENCH_ADMIN.password,
  }
  try {
    await runFlagman(['migrate'], env)
    await runFlagman(['server'], env, /is listening on/)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1)
}

/** The indexes migrations put on a table (but its primary key), to rebuild after a bulk load. */
async function secondaryIndexes(db, table) {
  const r = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = $1 AND indexname NOT LIKE '%_pkey'`,
    [table],
  )
  return r.rows
}

const ISO = (expr) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * Fills the (migrated) database. Ids are computed from the first id of each table, so
 * nothing depends on the sequences starting at 1.
 */
async function fill(db, { tasks, lines, projects, templatesPerProject }) {
  const step = async (what, sql, params = []) => {
    const started = performance.now()
    const r = await db.query(sql, params)
    console.log(`  ${what}: ${r.rowCount ?? 0} rows in ${seconds(started)} s`)
    return r
  }
  // The load is one-off and replayable: no need to wait for the WAL, nor to check each
  // log line's foreign key (every task id is generated right here).
  await db.query(`SET synchronous_commit = off`)
  await db.query(`SET maintenance_work_mem = '512MB'`)
  await db.query(`SET session_replication_role = replica`)

  await step(
    'projects',
    `INSERT INTO project (name, created, alert)
     SELECT 'Bench project ' || p, ${ISO(`now() - interval '400 days'`)}, 0
     FROM generate_series(1, $1::int) p`,
    [projects],
  )
  await step(
    'users (two per project)',
    `INSERT INTO "user" (username, name, email, password, created, admin, external, alert, pro, ldap_admin)
     SELECT 'bench_user_' || u, 'Bench user ' || u, 'bench' || u || '@example.test', NULL,
            ${ISO(`now() - interval '400 days'`)}, 0, 0, 0, 0, 0
     FROM generate_series(1, $1::int * 2) u`,
    [projects],
  )
  const { rows: bounds } = await db.query(`
    SELECT (SELECT min(id) FROM project) AS p0,
           (SELECT min(id) FROM "user" WHERE username LIKE 'bench_user_%') AS u0,
           (SELECT id FROM "user" WHERE username = '${BENCH_ADMIN.login}') AS admin`)
  const { p0, u0, admin } = bounds[0]
  await step(
    'memberships (the administrator in every project, two users in one each)',
    `INSERT INTO project_user (project_id, user_id, role, ldap_managed)
     SELECT id, $1::int, 'owner', 0 FROM project
     UNION ALL
     SELECT $2::int + (u / 2), $3::int + u, 'task_runner', 0 FROM generate_series(0, $4::int * 2 - 1) u`,
    [admin, p0, u0, projects],
  )
  await step(
    'templates',
    `INSERT INTO template (project_id, name, playbook, app, type, created,
                           allow_override_args_in_task, autorun, suppress_success_alerts)
     SELECT $1::int + (t / $2::int), 'Bench template ' || t, 'deploy.sh', 'bash', '',
            ${ISO(`now() - interval '400 days'`)}, 0, 0, 0
     FROM generate_series(0, $3::int * $2::int - 1) t`,
    [p0, templatesPerProject, projects],
  )
  const t0 = (await db.query('SELECT min(id) AS t0 FROM template')).rows[0].t0
  // Task i (0-based) belongs to project i % P, to template (i / P) % T of it, and was
  // created i minutes after the first; the newest few are still active. About one in ten
  // failed, spread by a hash so that every template has some.
  await step(
    'tasks',
    `INSERT INTO task (project_id, template_id, status, debug, dry_run, diff, playbook,
                       user_id, message, created, start, "end")
     SELECT $1::int + (i % $3::int),
            $2::int + (i % $3::int) * $4::int + ((i / $3::int) % $4::int),
            CASE WHEN i >= $5::int - ${ACTIVE_TASKS} THEN (ARRAY['running', 'waiting_confirmation'])[1 + i % 2]
                 WHEN abs(hashint4(i)) % 10 = 3 THEN 'error' WHEN abs(hashint4(i)) % 50 = 7 THEN 'stopped' ELSE 'success' END,
            0, 0, 0, NULL,
            CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN $6::int ELSE $7::int + (i % $3::int) * 2 END,
            CASE WHEN i = 0 THEN '${LONG_LOG_MESSAGE}' ELSE NULL END,
            ${ISO(`now() - ($5::int - i) * interval '1 minute'`)},
            ${ISO(`now() - ($5::int - i) * interval '1 minute' + interval '1 second'`)},
            CASE WHEN i >= $5::int - ${ACTIVE_TASKS} THEN NULL
                 ELSE ${ISO(`now() - ($5::int - i) * interval '1 minute' + interval '31 seconds'`)} END
     FROM generate_series(0, $5::int - 1) i`,
    [p0, t0, projects, templatesPerProject, tasks, admin, u0],
  )
  const first = (await db.query('SELECT min(id) AS first FROM task')).rows[0].first
  // Two events per task (queued, then finished) in the order they happened, and one event
  // that belongs to no project per thousand tasks.
  await step(
    'events',
    `INSERT INTO event (project_id, user_id, object_id, object_type, object_name, description, created)
     SELECT CASE WHEN e % 2000 = 1999 THEN NULL ELSE t.project_id END,
            t.user_id, t.id,
            CASE WHEN e % 2000 = 1999 THEN 'user' ELSE 'task' END, '',
            CASE WHEN e % 2000 = 1999 THEN 'User bench signed in'
                 WHEN e % 2 = 0 THEN 'Task ID ' || t.id || ' queued for running'
                 ELSE 'Task ID ' || t.id || ' finished - ' || upper(t.status) END,
            t.created
     FROM generate_series(0, $1::int * 2 - 1) e
     JOIN task t ON t.id = $2::int + e / 2
     ORDER BY e`,
    [tasks, first],
  )

  if (lines > 0) {
    const hasLine = (
      await db.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'task_output' AND column_name = 'line'`,
      )
    ).rowCount
    console.log(
      `  task_output.line column: ${hasLine ? 'present, numbered from 1' : 'absent, left out'}`,
    )
    const indexes = await secondaryIndexes(db, 'task_output')
    for (const index of indexes) await db.query(`DROP INDEX ${index.indexname}`)
    const long = Math.min(LONG_LOG_LINES, lines)
    const lineColumn = hasLine ? ', line' : ''
    const started = performance.now()
    for (let from = 1; from <= long; from += LINES_PER_STATEMENT) {
      const to = Math.min(long, from + LINES_PER_STATEMENT - 1)
      await db.query(
        `INSERT INTO task_output (task_id, time, output${lineColumn})
         SELECT $1::int, '2026-01-01T00:00:00.000Z', 'TASK [long log] line ' || g || ' ok: [host-' || (g % 97) || ']'
                ${hasLine ? ', g' : ''}
         FROM generate_series($2::bigint, $3::bigint) g`,
        [first, from, to],
      )
    }
    console.log(`  the long log of task ${first}: ${long} lines in ${seconds(started)} s`)
    // The rest spread over the other tasks (lines of one task consecutive, like a real log).
    const rest = lines - long
    const others = Math.max(1, tasks - 1)
    const perTask = Math.ceil(rest / others)
    for (let from = 0; from < rest; from += LINES_PER_STATEMENT) {
      const to = Math.min(rest, from + LINES_PER_STATEMENT) - 1
      const chunk = performance.now()
      await db.query(
        `INSERT INTO task_output (task_id, time, output${lineColumn})
         SELECT $1::int + 1 + g / $2::int, '2026-01-01T00:00:00.000Z',
                'TASK [step ' || (g % $2::int + 1) || '] ok: [host-' || (g % 97) || '] => changed=false'
                ${hasLine ? ', g % $2::int + 1' : ''}
         FROM generate_series($3::bigint, $4::bigint) g`,
        [first, perTask, from, to],
      )
      console.log(`  log lines ${from + 1}–${to + 1} of ${rest} in ${seconds(chunk)} s`)
    }
    const rebuilt = performance.now()
    // A trigram index over 100,000,000 lines builds far faster with room to sort in.
    await db.query(`SET maintenance_work_mem = '${process.env.BENCH_INDEX_MEMORY ?? '1GB'}'`)
    for (const index of indexes) await db.query(index.indexdef)
    console.log(`  rebuilt ${indexes.length} task_output indexes in ${seconds(rebuilt)} s`)
  }
  const analyzed = performance.now()
  await db.query('SET session_replication_role = DEFAULT')
  await db.query('ANALYZE')
  console.log(`  ANALYZE in ${seconds(analyzed)} s`)
  return { longLogTaskId: first }
}

/** Creates `name`, migrates it, fills it; returns its URL. Drops an older one of that name. */
export async function generate({ name, tasks, lines, projects, templatesPerProject }) {
  checkName(name)
  await dropDatabase(name)
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`))
  const url = databaseUrl(name)
  let started = performance.now()
  await createSchema(url)
  console.log(`  schema (bin/flagman migrate) and first administrator in ${seconds(started)} s`)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    started = performance.now()
    await fill(db, { tasks, lines, projects, templatesPerProject })
    console.log(`  filled in ${seconds(started)} s`)
    const size = await db.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS s`)
    console.log(`  database size: ${size.rows[0].s}`)
  } finally {
    await db.end()
  }
  return url
}

function freeGb() {
  const s = statfsSync(tmpdir())
  return (s.bavail * s.bsize) / 1024 ** 3
}

export function sizesFromEnv() {
  return {
    tasks: Number(process.env.BENCH_TASKS ?? 1_000_000),
    lines: Number(process.env.BENCH_LINES ?? 100_000_000),
    projects: Number(process.env.BENCH_PROJECTS ?? 100),
    templatesPerProject: Number(process.env.BENCH_TEMPLATES ?? 10),
  }
}

async function main() {
  const name = process.env.BENCH_DB_NAME ?? 'bench_million'
  const sizes = sizesFromEnv()
  for (const [key, value] of Object.entries(sizes)) {
    if (!Number.isInteger(value) || value < (key === 'lines' ? 0 : 1)) {
      throw new Error(`${key} must be a positive whole number`)
    }
  }
  // About 150 bytes a log line with its indexes; keep a margin for the WAL.
  const neededGb = (sizes.lines * 150 + sizes.tasks * 1500) / 1024 ** 3
  const before = freeGb()
  console.log(
    `Disk: ${before.toFixed(1)} GB free; this run needs about ${neededGb.toFixed(1)} GB ` +
      `(${sizes.tasks} tasks, ${sizes.lines} log lines, ${sizes.projects} projects)`,
  )
  if (neededGb * 1.5 > before) {
    const fit = Math.floor((before / 1.5 / 150) * 1024 ** 3)
    console.log(`Not enough disk for ${sizes.lines} lines: shrinking to ${fit}.`)
    sizes.lines = Math.max(0, fit)
  }
  const started = performance.now()
  await generate({ name, ...sizes })
  console.log(
    `Generated ${name} in ${seconds(started)} s; disk used: ${(before - freeGb()).toFixed(1)} GB`,
  )
  if (process.env.BENCH_KEEP === '1') {
    console.log(`Kept: ${databaseUrl(name)} (measure it with node bench/million-latency.mjs)`)
  } else {
    await dropDatabase(name)
    console.log(`Dropped ${name} (BENCH_KEEP=1 keeps it)`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
