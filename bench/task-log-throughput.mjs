#!/usr/bin/env node
// Log throughput against the database's own floor. First the floor: the same rows a task's log
// becomes (task_id, time, output, line) inserted by the project's driver (better-sqlite3, pg or
// mysql2) in batched multi-row inserts inside transactions, into a scratch copy of the
// task_output table (same columns, indexes and foreign key). Then one bash task printing
// BENCH_LINES short lines (default 1,000,000) through the server: lines per second stored
// (create → finished), as a share of the floor, lines lost (every stored line is read back in
// order) and the server's peak RSS; then the same with a websocket client taking every line.
//
// Usage (after `npm run build`):
//   node bench/task-log-throughput.mjs                    SQLite (a temporary data folder)
//   BENCH_DB=postgres node bench/task-log-throughput.mjs  a scratch database bench_logs_<pid>
//   BENCH_DB=mysql node bench/task-log-throughput.mjs     the same on MariaDB/MySQL
// FLAGMAN_BIN=<another build>/bin/flagman measures that build with the very same script.
// FLAGMAN_TEST_POSTGRES_URL / FLAGMAN_TEST_MYSQL_URL name the servers (an admin connection).

import { execSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import Sqlite from 'better-sqlite3'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { processStats, startBench } from './task-common.mjs'
import { BENCH_DB as DB, scratchDatabase } from './scratch-db.mjs'

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000) || 1_000_000
const COMMAND = `seq -f 'line %.0f' 1 ${LINES}`
const FINISHED = ['success', 'error', 'stopped']
const FLOOR_BATCH = 1000
const FLOOR_ROWS_PER_TRANSACTION = 20_000
const perSecond = (count, ms) => Math.round(count / (ms / 1000))
const rate = (count, ms) => `${perSecond(count, ms).toLocaleString('en')} lines/s`

/** The rows of one task's log, as the server stores them: one timestamp per millisecond. */
function* floorBatches() {
  const time = new Date().toISOString()
  for (let first = 1; first <= LINES; first += FLOOR_BATCH) {
    const params = []
    const last = Math.min(LINES, first + FLOOR_BATCH - 1)
    for (let line = first; line <= last; line += 1) params.push(1, time, `line ${line}`, line)
    yield { rows: last - first + 1, params }
  }
}

const tuples = (rows, tuple) => Array.from({ length: rows }, (_, i) => tuple(i)).join(', ')

/** Raw batched inserts of LINES rows with the driver; returns milliseconds. */
async function measureFloor(url) {
  if (DB === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'flagman-bench-floor-'))
    const db = new Sqlite(join(dir, 'floor.sqlite'))
    try {
      // The server's own settings (packages/db/src/dialects/create-db.ts).
      db.pragma('journal_mode = WAL')
      db.pragma('foreign_keys = ON')
      db.pragma('synchronous = NORMAL')
      db.pragma('secure_delete = ON')
      db.exec(`create table task (id integer primary key autoincrement);
        insert into task default values;
        create table task_output (id integer primary key autoincrement,
          task_id integer not null references task (id) on delete cascade,
          time varchar(32) not null, output text not null, line integer);
        create index task_output_task_idx on task_output (task_id, id);
        create index task_output_line_idx on task_output (task_id, line);`)
      const statements = new Map()
      const insert = (rows) => {
        if (!statements.has(rows)) {
          const sql = `insert into task_output (task_id, time, output, line) values ${tuples(rows, () => '(?, ?, ?, ?)')}`
          statements.set(rows, db.prepare(sql))
        }
        return statements.get(rows)
      }
      const t = performance.now()
      let inTransaction = 0
      db.exec('begin')
      for (const batch of floorBatches()) {
        insert(batch.rows).run(batch.params)
        inTransaction += batch.rows
        if (inTransaction >= FLOOR_ROWS_PER_TRANSACTION) {
          db.exec('commit')
          db.exec('begin')
          inTransaction = 0
        }
      }
      db.exec('commit')
      return performance.now() - t
    } finally {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  if (DB === 'postgres') {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(`create table bench_task (id serial primary key);
        insert into bench_task default values;
        create table bench_output (id serial primary key,
          task_id integer not null references bench_task (id) on delete cascade,
          time varchar(32) not null, output text not null, line integer);
        create index bench_output_task_idx on bench_output (task_id, id);
        create index bench_output_line_idx on bench_output (task_id, line);`)
      const t = performance.now()
      let inTransaction = 0
      await client.query('begin')
      for (const batch of floorBatches()) {
        const sql = `insert into bench_output (task_id, time, output, line) values ${tuples(batch.rows, (i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`)}`
        await client.query({ name: `floor_${batch.rows}`, text: sql, values: batch.params })
        inTransaction += batch.rows
        if (inTransaction >= FLOOR_ROWS_PER_TRANSACTION) {
          await client.query('commit')
          await client.query('begin')
          inTransaction = 0
        }
      }
      await client.query('commit')
      const ms = performance.now() - t
      await client.query('drop table bench_output; drop table bench_task')
      return ms
    } finally {
      await client.end()
    }
  }
  const connection = await mysql.createConnection({ uri: url, multipleStatements: true })
  try {
    await connection.query(`create table bench_task (id integer primary key auto_increment)
        default character set utf8mb4 collate utf8mb4_unicode_ci;
      insert into bench_task () values ();
      create table bench_output (id integer primary key auto_increment,
        task_id integer not null, time varchar(32) not null, output mediumtext not null,
        line integer, foreign key (task_id) references bench_task (id) on delete cascade)
        default character set utf8mb4 collate utf8mb4_unicode_ci;
      create index bench_output_task_idx on bench_output (task_id, id);
      create index bench_output_line_idx on bench_output (task_id, line);`)
    const t = performance.now()
    let inTransaction = 0
    await connection.query('begin')
    for (const batch of floorBatches()) {
      const sql = `insert into bench_output (task_id, time, output, line) values ${tuples(batch.rows, () => '(?, ?, ?, ?)')}`
      await connection.execute(sql, batch.params)
      inTransaction += batch.rows
      if (inTransaction >= FLOOR_ROWS_PER_TRANSACTION) {
        await connection.query('commit')
        await connection.query('begin')
        inTransaction = 0
      }
    }
    await connection.query('commit')
    const ms = performance.now() - t
    await connection.query('drop table bench_output; drop table bench_task')
    return ms
  } finally {
    await connection.end()
  }
}

/** Samples the server's resident memory until stopped; returns the peak in MB. */
function rssSampler(pid) {
  let peak = processStats(pid).rssMb
  const timer = setInterval(() => {
    peak = Math.max(peak, processStats(pid).rssMb)
  }, 50)
  return () => {
    clearInterval(timer)
    return Math.max(peak, processStats(pid).rssMb)
  }
}

const scratch = await scratchDatabase('bench_logs')
let bench
try {
  const floorMs = await measureFloor(scratch.url)
  const floorRate = perSecond(LINES, floorMs)
  const t = performance.now()
  execSync(`${COMMAND} > /dev/null`, { shell: '/bin/bash' })
  const devNullMs = performance.now() - t
  console.log(`database: ${DB}; lines printed per task: ${LINES.toLocaleString('en')}`)
  console.log(
    `floor, batched inserts of ${FLOOR_BATCH} rows by the driver: ${floorMs.toFixed(0)} ms (${rate(LINES, floorMs)})`,
  )
  console.log(`same command to /dev/null: ${devNullMs.toFixed(0)} ms (${rate(LINES, devNullMs)})`)

  bench = await startBench(
    { 'lines.sh': `${COMMAND}\n` },
    scratch.url ? { FLAGMAN_DB: scratch.url } : {},
  )
  const tpl = await bench.template('lines.sh')
  const base = `/api/project/${bench.project.id}/tasks`

  /**
   * Every stored line of the task, checked to be whole and in order: by pages where the
   * server numbers lines (checking the numbers too), in one answer from builds that do not.
   */
  const checkStored = async (taskId) => {
    let stored = 0
    let inOrder = true
    const check = (o, expectedLine) => {
      if (expectedLine !== undefined && o.line !== expectedLine) inOrder = false
      if (!o.output.startsWith('line ')) return
      stored += 1
      if (inOrder && o.output !== `line ${stored}`) inOrder = false
    }
    const counted = await fetch(`${bench.url}${base}/${taskId}/output/count`, {
      headers: { Cookie: bench.cookie },
    })
    if (counted.status === 404) {
      for (const o of await bench.api('GET', `${base}/${taskId}/output`)) check(o)
      return { stored, inOrder }
    }
    const { count } = await counted.json()
    for (let offset = 1; offset <= count; offset += 10_000) {
      const page = await bench.api('GET', `${base}/${taskId}/output?offset=${offset}&limit=10000`)
      page.forEach((o, i) => check(o, offset + i))
    }
    return { stored, inOrder }
  }

  const report = (label, stored, ms) => {
    const share = ((perSecond(stored, ms) / floorRate) * 100).toFixed(0)
    return `${label}: stored ${stored.toLocaleString('en')} lines, lost ${(LINES - stored).toLocaleString('en')}; create → finished ${ms.toFixed(0)} ms (${rate(stored, ms)}, ${share} % of the floor's ${floorRate.toLocaleString('en')})`
  }

  // 1. Stored only: nobody watches the task live.
  {
    const before = processStats(bench.pid)
    const peakRss = rssSampler(bench.pid)
    const t0 = performance.now()
    const task = await bench.run(tpl)
    let status
    for (;;) {
      status = (await bench.api('GET', `${base}/${task.id}`)).status
      if (FINISHED.includes(status)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - t0
    const peak = peakRss()
    const after = processStats(bench.pid)
    const { stored, inOrder } = await checkStored(task.id)
    console.log(`${report(`no live viewer (${status})`, stored, ms)}; in order: ${inOrder}`)
    console.log(
      `  server CPU ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s; RSS ${before.rssMb.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`,
    )
  }

  // 2. Stored and delivered to a websocket client.
  {
    const ws = await bench.socket()
    let delivered = 0
    let lastDelivery = 0
    let finished
    const done = new Promise((r) => (finished = r))
    let taskId = -1
    const LOG = Buffer.from('{"type":"log"')
    const LINE = Buffer.from('"output":"line ')
    ws.on('message', (data) => {
      // Log lines are counted without decoding or parsing each one; updates are parsed.
      if (data.subarray(0, LOG.length).equals(LOG)) {
        if (data.includes(LINE, LOG.length)) {
          delivered += 1
          lastDelivery = performance.now()
        }
        return
      }
      const m = JSON.parse(String(data))
      if (m.type === 'update' && m.task_id === taskId && FINISHED.includes(m.status)) {
        finished(m.status)
      }
    })
    // The server disconnects a client that falls too far behind; say so instead of waiting.
    ws.on('close', () => finished('websocket closed by the server before the task ended'))
    const before = processStats(bench.pid)
    const peakRss = rssSampler(bench.pid)
    const t0 = performance.now()
    const task = await bench.run(tpl)
    taskId = task.id
    const status = await done
    const storedMs = performance.now() - t0
    const peak = peakRss()
    const after = processStats(bench.pid)
    await new Promise((r) => setTimeout(r, 500))
    const { stored, inOrder } = await checkStored(task.id)
    ws.close()
    console.log(
      `${report(`with a websocket client (${status})`, stored, storedMs)}; in order: ${inOrder}`,
    )
    console.log(
      `  websocket: ${delivered.toLocaleString('en')} lines delivered, last at ${(lastDelivery - t0).toFixed(0)} ms (${rate(delivered, lastDelivery - t0)})`,
    )
    console.log(
      `  server CPU ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s; RSS ${before.rssMb.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`,
    )
  }
} finally {
  await bench?.stop()
  await scratch.drop()
}
