import type { App, SaveAppBody } from '@flagman/contract'
import { isDefaultApp, type DefaultAppId } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { z } from 'zod'
import { onPath } from '../../lib/which.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'

type SaveInput = z.output<typeof SaveAppBody>

interface AppDefaults {
  priority: number
  title: string
  icon: string
  color: string
  dark_color: string
  /** Program looked for on PATH to decide whether the app starts active. */
  program: string
}

const DEFAULTS: Record<DefaultAppId, AppDefaults> = {
  ansible: {
    priority: 1000,
    title: 'Ansible',
    icon: 'ansible',
    color: '#1a1918',
    dark_color: '#ffffff',
    program: 'ansible-playbook',
  },
  terraform: {
    priority: 900,
    title: 'Terraform',
    icon: 'terraform',
    color: '#7b42bc',
    dark_color: '#a77fe0',
    program: 'terraform',
  },
  tofu: {
    priority: 800,
    title: 'OpenTofu',
    icon: 'tofu',
    color: '#b89700',
    dark_color: '#ffda18',
    program: 'tofu',
  },
  pulumi: {
    priority: 750,
    title: 'Pulumi',
    icon: 'pulumi',
    color: '#8a3391',
    dark_color: '#f7bf2a',
    program: 'pulumi',
  },
  bash: {
    priority: 700,
    title: 'Bash',
    icon: 'bash',
    color: '#2e7d32',
    dark_color: '#81c784',
    program: 'bash',
  },
  powershell: {
    priority: 600,
    title: 'PowerShell',
    icon: 'powershell',
    color: '#012456',
    dark_color: '#5391fe',
    program: 'pwsh',
  },
  python: {
    priority: 500,
    title: 'Python',
    icon: 'python',
    color: '#306998',
    dark_color: '#ffd43b',
    program: 'python3',
  },
}

const FIELDS = [
  'active',
  'priority',
  'title',
  'icon',
  'color',
  'dark_color',
  'path',
  'args',
] as const
type Field = (typeof FIELDS)[number]
const PREFIX = 'apps.'

/** Stored settings of every app, by app id then field (values as stored text). */
async function storedSettings(db: Db): Promise<Map<string, Map<Field, string>>> {
  const rows = await db.kysely
    .selectFrom('option')
    .select(['key', 'value'])
    .where('key', 'like', `${PREFIX}%`)
    .execute()
  const byApp = new Map<string, Map<Field, string>>()
  for (const row of rows) {
    const [, id, field] = row.key.split('.')
    if (!id || !field || !(FIELDS as readonly string[]).includes(field)) continue
    if (!byApp.has(id)) byApp.set(id, new Map())
    byApp.get(id)!.set(field as Field, row.value)
  }
  return byApp
}

function toApp(id: string, stored: Map<Field, string> | undefined): App {
  const base = isDefaultApp(id) ? DEFAULTS[id] : undefined
  const get = (field: Field) => stored?.get(field)
  const args = get('args')
  return {
    id,
    active:
      get('active') !== undefined ? get('active') === 'true' : base ? onPath(base.program) : false,
    priority: get('priority') !== undefined ? Number(get('priority')) : (base?.priority ?? 0),
    title: get('title') ?? base?.title ?? id,
    icon: get('icon') ?? base?.icon ?? '',
    color: get('color') ?? base?.color ?? '',
    dark_color: get('dark_color') ?? base?.dark_color ?? '',
    path: get('path') ?? '',
    args: args ? (JSON.parse(args) as string[]) : null,
  }
}

/** Default apps and apps added by administrators, highest priority first. */
export async function listApps(db: Db): Promise<App[]> {
  const stored = await storedSettings(db)
  const ids = new Set<string>([...Object.keys(DEFAULTS), ...stored.keys()])
  return [...ids]
    .map((id) => toApp(id, stored.get(id)))
    .sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id))
}

export async function findApp(db: Db, id: string): Promise<App | null> {
  const stored = await storedSettings(db)
  if (!isDefaultApp(id) && !stored.has(id)) return null
  return toApp(id, stored.get(id))
}

export async function getApp(db: Db, id: string): Promise<App> {
  const app = await findApp(db, id)
  if (!app) throw new NotFoundError('App')
  return app
}

/** Creates or updates an app. Empty strings and empty argument lists remove the stored value. */
export async function saveApp(db: Db, id: string, input: SaveInput): Promise<void> {
  const values: Array<[Field, string | null]> = [
    ['active', input.active === undefined ? null : String(input.active)],
    ['priority', input.priority === undefined ? null : String(input.priority)],
    ['title', input.title || null],
    ['icon', input.icon || null],
    ['color', input.color || null],
    ['dark_color', input.dark_color || null],
    ['path', input.path || null],
    ['args', input.args && input.args.length > 0 ? JSON.stringify(input.args) : null],
  ]
  await db.kysely.transaction().execute(async (trx) => {
    for (const [field, value] of values) {
      const key = `${PREFIX}${id}.${field}`
      await trx.deleteFrom('option').where('key', '=', key).execute()
      if (value !== null) await trx.insertInto('option').values({ key, value }).execute()
    }
    // An app with nothing stored would vanish from the list; keep it known.
    if (!isDefaultApp(id) && values.every(([, v]) => v === null)) {
      await trx
        .insertInto('option')
        .values({ key: `${PREFIX}${id}.active`, value: 'false' })
        .execute()
    }
  })
}

export async function setAppActive(db: Db, id: string, active: boolean): Promise<void> {
  await getApp(db, id)
  const key = `${PREFIX}${id}.active`
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('option').where('key', '=', key).execute()
    await trx
      .insertInto('option')
      .values({ key, value: String(active) })
      .execute()
  })
}

export async function deleteApp(db: Db, id: string): Promise<void> {
  if (isDefaultApp(id))
    throw new BadRequestError('Default apps can not be deleted; deactivate it instead')
  await getApp(db, id)
  await db.kysely.deleteFrom('option').where('key', 'like', `${PREFIX}${id}.%`).execute()
}
