import { execFileSync } from 'node:child_process'
import type { RouteDef } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { sql } from 'kysely'
import WebSocket from 'ws'
import type { z } from 'zod'
export { until } from './wait.js'

export { gitRepository } from './tasks.js'

/** `METHOD /path` of a route, as tables of cases name it. */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`
}

/** The names of a route path's `:parameters`, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] ?? '')
}

/** One leaf of a schema: where it sits (`[]` marks an array element) and its zod type. */
export interface SchemaLeaf {
  path: string[]
  type: string
}

interface Def {
  type: string
  innerType?: z.ZodType
  in?: z.ZodType
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  options?: z.ZodType[]
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def
}

/**
 * Every leaf field of a request schema, looking through optional, nullable, default and
 * piped wrappers, into objects, arrays and the options of unions.
 */
export function schemaLeaves(schema: z.ZodType | undefined): SchemaLeaf[] {
  const found = new Map<string, SchemaLeaf>()
  const walk = (node: z.ZodType | undefined, path: string[], depth: number): void => {
    if (!node || depth > 60) return
    const def = defOf(node)
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        return walk(def.innerType, path, depth + 1)
      case 'pipe':
        return walk(def.in, path, depth + 1)
      case 'object':
        for (const [key, value] of Object.entries(def.shape ?? {})) {
          walk(value, [...path, key], depth + 1)
        }
        return
      case 'array':
        return walk(def.element, [...path, '[]'], depth + 1)
      case 'union':
        for (const option of def.options ?? []) walk(option, path, depth + 1)
        return
      default: {
        const key = path.join('.')
        if (!found.has(key)) found.set(key, { path, type: def.type })
      }
    }
  }
  walk(schema, [], 0)
  return [...found.values()]
}

/**
 * A copy of `base` with `value` at `path`; an array step uses the array's first element
 * (made when missing), so a nested field is set in a body that stays otherwise valid.
 */
export function withValueAt(base: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value
  const [step, ...rest] = path
  if (step === '[]') {
    const list = Array.isArray(base) ? [...(base as unknown[])] : []
    const first = list[0] ?? (rest[0] === '[]' ? [] : rest.length > 0 ? {} : undefined)
    list[0] = withValueAt(first, rest, value)
    return list
  }
  const object =
    typeof base === 'object' && base !== null && !Array.isArray(base)
      ? { ...(base as Record<string, unknown>) }
      : {}
  object[step as string] = withValueAt(object[step as string], rest, value)
  return object
}

/**
 * Tables that change on their own: sessions (their last use moves with each request),
 * server instances (their heartbeats) and the log search indexes (`task_output_fts…`,
 * `task_output_search…`), filled in the background from the logs of ended tasks.
 */
function movesOnItsOwn(table: string): boolean {
  return table === 'session' || table === 'server_instance' || table.startsWith('task_output_')
}

/**
 * Every row of every table but those that change on their own, to show that a refused
 * request wrote nothing anywhere. `shape` may drop a row (null); tables
 * in `skip` are left out and of those in `idsOnly` only the ids are read, for rows that
 * change on their own (a running task's status and output).
 */
export async function databaseSnapshot(
  db: Db,
  shape: (table: string, row: Record<string, unknown>) => unknown = (_table, row) => row,
  options: { skip?: readonly string[]; idsOnly?: readonly string[] } = {},
): Promise<string> {
  let tables = tableNames.get(db)
  if (tables === undefined) {
    tables = (await db.kysely.introspection.getTables())
      .map((t) => t.name)
      .filter((name) => !movesOnItsOwn(name) && !name.startsWith('kysely_'))
      .sort()
    tableNames.set(db, tables)
  }
  const parts = await Promise.all(
    tables
      .filter((table) => !(options.skip ?? []).includes(table))
      .map(async (table) => {
        const columns = (options.idsOnly ?? []).includes(table) ? sql`id` : sql`*`
        const rows = await sql<
          Record<string, unknown>
        >`select ${columns} from ${sql.table(table)} order by 1`.execute(db.kysely)
        const shaped = rows.rows.map((row) => shape(table, row)).filter((row) => row !== null)
        return `${table}: ${JSON.stringify(shaped)}`
      }),
  )
  return parts.join('\n')
}

const tableNames = new WeakMap<Db, string[]>()

/** A websocket connection to `/api/ws` that keeps the text of every frame it receives. */
export interface SocketRecorder {
  frames: string[]
  close(): void
}

export function recordSocket(url: string, cookie: string): Promise<SocketRecorder> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`, {
      headers: { Cookie: cookie },
    })
    const frames: string[] = []
    socket.on('message', (data) => frames.push(String(data)))
    socket.once('open', () => resolve({ frames, close: () => socket.close() }))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

/** The command lines of every process on the machine, one per line. */
export function processArgs(): string {
  return execFileSync('ps', ['-eo', 'args', '--no-headers'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
}
