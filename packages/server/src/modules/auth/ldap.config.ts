import { readFileSync } from 'node:fs'
import { PROJECT_ROLES, type ProjectRole } from '@flagman/contract'
import { FilterParser } from 'ldapts'
import { z } from 'zod'

/** Which directory attribute holds each field of a Flagman user. */
export interface LdapAttributes {
  /** Email address. */
  mail: string
  /** Username. */
  uid: string
  /** Display name. */
  cn: string
}

/** Members of `group` get `role` in project `projectId`, or become administrators. */
export type LdapGroupRule =
  { group: string; projectId: number; role: ProjectRole } | { group: string; admin: true }

/** Sign-in against an LDAP directory; on when `FLAGMAN_LDAP_URL` is set. */
export interface LdapConfig {
  /** `ldap://host[:port]` or `ldaps://host[:port]`. */
  url: string
  /** Service account that searches for users; empty: searches anonymously. */
  bindDn: string
  bindPassword: string
  searchBase: string
  /** Filter with `%s` where the escaped login goes. */
  searchFilter: string
  attributes: LdapAttributes
  /** Upgrades an ldap:// connection with StartTLS before anything is sent. */
  startTls: boolean
  /** PEM certificates trusted for the server's certificate; null: the system's authorities. */
  ca: string | null
  groupRoles: LdapGroupRule[]
}

export const DEFAULT_LDAP_FILTER = '(uid=%s)'
export const DEFAULT_LDAP_ATTRIBUTES: LdapAttributes = { mail: 'mail', uid: 'uid', cn: 'cn' }

/** Settings read here; any of them set while FLAGMAN_LDAP_URL is not is a mistake. */
const LDAP_SETTINGS = [
  'FLAGMAN_LDAP_BIND_DN',
  'FLAGMAN_LDAP_BIND_PASSWORD',
  'FLAGMAN_LDAP_BIND_PASSWORD_FILE',
  'FLAGMAN_LDAP_SEARCH_BASE',
  'FLAGMAN_LDAP_SEARCH_FILTER',
  'FLAGMAN_LDAP_ATTRIBUTES',
  'FLAGMAN_LDAP_START_TLS',
  'FLAGMAN_LDAP_CA_FILE',
  'FLAGMAN_LDAP_GROUP_ROLES',
] as const

/** Attribute description: a name (letters, digits, hyphens) or a numeric OID. */
const ATTRIBUTE_NAME = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/

const AttributesSchema = z
  .object({
    mail: z.string().regex(ATTRIBUTE_NAME, 'must be an attribute name').optional(),
    uid: z.string().regex(ATTRIBUTE_NAME, 'must be an attribute name').optional(),
    cn: z.string().regex(ATTRIBUTE_NAME, 'must be an attribute name').optional(),
  })
  .strict()

const GroupDn = z
  .string()
  .trim()
  .regex(/^[^=]+=.+/, 'group must be a group DN such as cn=admins,ou=groups,dc=example,dc=com')

const GroupRulesSchema = z.array(
  z.union([
    z
      .object({
        group: GroupDn,
        project_id: z.number().int().positive(),
        role: z.enum(PROJECT_ROLES),
      })
      .strict(),
    z.object({ group: GroupDn, admin: z.literal(true) }).strict(),
  ]),
)

export class LdapConfigError extends Error {}

function fail(setting: string, message: string): never {
  throw new LdapConfigError(`Invalid setting ${setting}: ${message}`)
}

function parseJson(setting: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    fail(setting, 'not valid JSON')
  }
}

function readSettingFile(setting: string, path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    fail(setting, `can not read ${path}${typeof code === 'string' ? ` (${code})` : ''}`)
  }
}

function parseBool(setting: string, value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase()
  if (['true', '1', 'yes'].includes(v)) return true
  if (['false', '0', 'no', ''].includes(v)) return false
  return fail(setting, 'expected true or false')
}

function parseUrl(value: string): string {
  const url = value.trim().replace(/\/+$/, '')
  const match = /^(ldaps?):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(url)
  if (!match) {
    fail('FLAGMAN_LDAP_URL', 'expected ldap://host:port or ldaps://host:port')
  }
  const port = match[3]
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    fail('FLAGMAN_LDAP_URL', 'the port must be between 1 and 65535')
  }
  return url
}

function parseFilter(value: string | undefined): string {
  const filter = value?.trim() || DEFAULT_LDAP_FILTER
  if (!filter.includes('%s')) fail('FLAGMAN_LDAP_SEARCH_FILTER', 'must contain %s for the login')
  try {
    FilterParser.parseString(filter.replaceAll('%s', 'login'))
  } catch {
    fail('FLAGMAN_LDAP_SEARCH_FILTER', 'not a valid LDAP filter, e.g. (uid=%s)')
  }
  return filter
}

function parseAttributes(value: string | undefined): LdapAttributes {
  if (!value?.trim()) return { ...DEFAULT_LDAP_ATTRIBUTES }
  const parsed = AttributesSchema.safeParse(parseJson('FLAGMAN_LDAP_ATTRIBUTES', value))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    fail(
      'FLAGMAN_LDAP_ATTRIBUTES',
      `${where}${issue?.message ?? 'invalid'} (expected {"mail":"mail","uid":"uid","cn":"cn"})`,
    )
  }
  return { ...DEFAULT_LDAP_ATTRIBUTES, ...parsed.data }
}

function parseGroupRoles(value: string | undefined): LdapGroupRule[] {
  if (!value?.trim()) return []
  const parsed = GroupRulesSchema.safeParse(parseJson('FLAGMAN_LDAP_GROUP_ROLES', value))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `entry ${issue.path.join('.')}: ` : ''
    fail(
      'FLAGMAN_LDAP_GROUP_ROLES',
      `${where}${issue?.message ?? 'invalid'} (expected a list of ` +
        '{"group":"<group DN>","project_id":1,"role":"owner|manager|task_runner|guest"} ' +
        'or {"group":"<group DN>","admin":true})',
    )
  }
  return parsed.data.map((rule) =>
    'admin' in rule
      ? { group: rule.group, admin: true as const }
      : { group: rule.group, projectId: rule.project_id, role: rule.role },
  )
}

function parseCa(path: string | undefined): string | null {
  if (!path?.trim()) return null
  const pem = readSettingFile('FLAGMAN_LDAP_CA_FILE', path.trim())
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    fail('FLAGMAN_LDAP_CA_FILE', `${path.trim()} holds no PEM certificate`)
  }
  return pem
}

/** Reads the `FLAGMAN_LDAP_*` settings; null when LDAP sign-in is off. */
export function loadLdapConfig(env: NodeJS.ProcessEnv): LdapConfig | null {
  const urlSetting = env.FLAGMAN_LDAP_URL?.trim()
  if (!urlSetting) {
    const stray = LDAP_SETTINGS.find((name) => env[name]?.trim())
    if (stray) fail(stray, 'LDAP sign-in is off because FLAGMAN_LDAP_URL is not set')
    return null
  }
  const url = parseUrl(urlSetting)
  const startTls = parseBool('FLAGMAN_LDAP_START_TLS', env.FLAGMAN_LDAP_START_TLS)
  if (startTls && url.startsWith('ldaps:')) {
    fail('FLAGMAN_LDAP_START_TLS', 'StartTLS upgrades ldap:// connections; ldaps:// is already TLS')
  }
  const bindDn = env.FLAGMAN_LDAP_BIND_DN?.trim() ?? ''
  const inline = env.FLAGMAN_LDAP_BIND_PASSWORD
  const file = env.FLAGMAN_LDAP_BIND_PASSWORD_FILE?.trim()
  if (inline && file) {
    fail('FLAGMAN_LDAP_BIND_PASSWORD_FILE', 'set either it or FLAGMAN_LDAP_BIND_PASSWORD')
  }
  // A trailing line break of the file is not part of the password.
  const bindPassword = file
    ? readSettingFile('FLAGMAN_LDAP_BIND_PASSWORD_FILE', file).replace(/\r?\n$/, '')
    : (inline ?? '')
  if (bindDn && !bindPassword) {
    fail('FLAGMAN_LDAP_BIND_PASSWORD', `required with FLAGMAN_LDAP_BIND_DN`)
  }
  if (!bindDn && bindPassword) {
    fail('FLAGMAN_LDAP_BIND_DN', 'required with a bind password')
  }
  const searchBase = env.FLAGMAN_LDAP_SEARCH_BASE?.trim() ?? ''
  if (!searchBase) fail('FLAGMAN_LDAP_SEARCH_BASE', 'required with FLAGMAN_LDAP_URL')
  return {
    url,
    bindDn,
    bindPassword,
    searchBase,
    searchFilter: parseFilter(env.FLAGMAN_LDAP_SEARCH_FILTER),
    attributes: parseAttributes(env.FLAGMAN_LDAP_ATTRIBUTES),
    startTls,
    ca: parseCa(env.FLAGMAN_LDAP_CA_FILE),
    groupRoles: parseGroupRoles(env.FLAGMAN_LDAP_GROUP_ROLES),
  }
}
