import type { ConnectionOptions } from 'node:tls'
import {
  Client,
  Filter,
  InvalidCredentialsError,
  NoSuchObjectError,
  ResultCodeError,
  SizeLimitExceededError,
  type Entry,
} from 'ldapts'
import { AppError } from '../../platform/errors.js'
import type { LdapConfig } from './ldap.config.js'

/** Milliseconds to reach the directory, and for each operation on it. */
const CONNECT_TIMEOUT_MS = 5_000
const OPERATION_TIMEOUT_MS = 10_000

/** Attribute of a user entry listing the groups the entry belongs to (when the server has it). */
const MEMBER_OF = 'memberOf'

/** What the login page shows when the directory does not answer as it should. */
export const LDAP_UNAVAILABLE =
  'The LDAP directory can not be reached, so sign-in with a directory account is not possible ' +
  'right now. Try again later or ask your administrator.'

/**
 * The directory is down, refuses the service account, or its certificate can not be
 * verified. The sign-in fails without a session; not the server's fault, so not a 5xx.
 */
export class LdapUnavailableError extends AppError {
  constructor() {
    super(424, LDAP_UNAVAILABLE)
  }
}

/** A user entry found by the search, after its password was accepted by the directory. */
export interface LdapAccount {
  dn: string
  username: string
  email: string
  name: string
  /** Group DNs (normalised with `normaliseDn`) of the mapped groups the user belongs to. */
  groups: Set<string>
}

export type LdapOutcome =
  /** The search found no entry: the login is not a directory account. */
  | { kind: 'unknown' }
  /** The entry was found, and the password refused (or the entry is not usable). */
  | { kind: 'refused'; reason: string }
  | { kind: 'account'; account: LdapAccount }

export interface LdapLog {
  info(obj: object, message: string): void
  warn(obj: object, message: string): void
}

/** Escapes a value for a search filter (RFC 4515): `*`, `(`, `)`, `\` and NUL. */
export function escapeFilterValue(value: string): string {
  return Filter.escape(value)
}

/**
 * A DN in a form that compares equal to the same DN written differently: attribute names
 * and values in lower case, no spaces around separators.
 */
export function normaliseDn(dn: string): string {
  return dn
    .trim()
    .replace(/\s*([,=+])\s*/g, '$1')
    .toLowerCase()
}

function hostOf(url: string): string {
  const host = new URL(url).hostname
  return host.startsWith('[') ? host.slice(1, -1) : host
}

function tlsOptions(config: LdapConfig): ConnectionOptions {
  // Certificates are always verified: against the configured authority, else the system's.
  return {
    rejectUnauthorized: true,
    minVersion: 'TLSv1.2',
    ...(config.ca ? { ca: config.ca } : {}),
  }
}

/** Values of an attribute, found whatever the case of its name, as strings. */
function values(entry: Entry, attribute: string): string[] {
  const wanted = attribute.toLowerCase()
  const key = Object.keys(entry).find((k) => k !== 'dn' && k.toLowerCase() === wanted)
  const value = key === undefined ? undefined : entry[key]
  if (value === undefined) return []
  const list = Array.isArray(value) ? value : [value]
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v)).filter((v) => v !== '')
}

/** What of an error may be logged: its kind and code, never anything sent with the request. */
function describe(error: unknown): { error: string; code?: unknown } {
  if (error instanceof ResultCodeError) return { error: error.name, code: error.code }
  const e = error as { code?: unknown; message?: unknown } | null
  return { error: String(e?.message ?? error).slice(0, 200), code: e?.code }
}

/**
 * Signs in against the directory: binds as the service account, searches the login with
 * the configured filter, binds as the entry found with the given password, then (as the
 * service account again) reads which of the mapped groups the entry belongs to.
 * Throws LdapUnavailableError when the directory can not be used.
 */
export async function ldapAuthenticate(
  config: LdapConfig,
  login: string,
  password: string,
  log: LdapLog,
): Promise<LdapOutcome> {
  // An empty password would be an unauthenticated bind, which directories accept.
  if (!password) return { kind: 'refused', reason: 'empty password' }
  const client = new Client({
    url: config.url,
    connectTimeout: CONNECT_TIMEOUT_MS,
    timeout: OPERATION_TIMEOUT_MS,
    // Any TLS option makes the client speak TLS from the start: only for ldaps://.
    ...(config.url.startsWith('ldaps:') ? { tlsOptions: tlsOptions(config) } : {}),
  })
  let step = 'connect'
  try {
    if (config.startTls) {
      step = 'starttls'
      await client.startTLS({ ...tlsOptions(config), host: hostOf(config.url) })
    }
    if (config.bindDn) {
      step = 'service bind'
      await client.bind(config.bindDn, config.bindPassword)
    }
    step = 'search'
    const { mail, uid, cn } = config.attributes
    let entries: Entry[]
    try {
      const filter = config.searchFilter.replaceAll('%s', escapeFilterValue(login))
      entries = (
        await client.search(config.searchBase, {
          scope: 'sub',
          filter,
          attributes: [mail, uid, cn, MEMBER_OF],
          sizeLimit: 2,
        })
      ).searchEntries
    } catch (error) {
      if (error instanceof SizeLimitExceededError) entries = [{ dn: '' }, { dn: '' }]
      else if (error instanceof NoSuchObjectError) entries = []
      else throw error
    }
    if (entries.length === 0) return { kind: 'unknown' }
    if (entries.length > 1) {
      log.warn({}, 'LDAP search filter matches more than one entry for a login; sign-in refused')
      return { kind: 'refused', reason: 'ambiguous' }
    }
    const entry = entries[0] as Entry
    step = 'user bind'
    try {
      await client.bind(entry.dn, password)
    } catch (error) {
      if (error instanceof ResultCodeError) {
        return {
          kind: 'refused',
          reason: error instanceof InvalidCredentialsError ? 'wrong password' : error.name,
        }
      }
      throw error
    }
    const username = values(entry, uid)[0]
    const email = values(entry, mail)[0]
    const name = values(entry, cn)[0]
    const missing = [
      [uid, username],
      [mail, email],
      [cn, name],
    ].find(([, v]) => !v)?.[0]
    if (missing) {
      throw new AppError(
        400,
        `Your directory entry has no "${missing}" attribute, which Flagman needs; ` +
          'ask your administrator.',
      )
    }
    const groups = new Set<string>()
    if (config.groupRoles.length > 0) {
      step = 'group search'
      // Group lists are read as the service account, as upstream re-binds; anonymously
      // configured, the user's own bind reads them.
      if (config.bindDn) await client.bind(config.bindDn, config.bindPassword)
      const mapped = new Set(config.groupRoles.map((r) => normaliseDn(r.group)))
      for (const group of values(entry, MEMBER_OF)) {
        if (mapped.has(normaliseDn(group))) groups.add(normaliseDn(group))
      }
      for (const rule of config.groupRoles) {
        const key = normaliseDn(rule.group)
        if (groups.has(key)) continue
        if (await isGroupMember(client, rule.group, entry.dn, log)) groups.add(key)
      }
    }
    return {
      kind: 'account',
      account: {
        dn: entry.dn,
        username: username as string,
        email: email as string,
        name: name as string,
        groups,
      },
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    log.warn({ ...describe(error), step, url: config.url }, 'LDAP directory sign-in failed')
    throw new LdapUnavailableError()
  } finally {
    await client.unbind().catch(() => {})
  }
}

/** Whether the group entry lists the DN as `member` or `uniqueMember`. */
async function isGroupMember(
  client: Client,
  group: string,
  dn: string,
  log: LdapLog,
): Promise<boolean> {
  const value = escapeFilterValue(dn)
  try {
    const { searchEntries } = await client.search(group, {
      scope: 'base',
      filter: `(|(member=${value})(uniqueMember=${value}))`,
      attributes: ['1.1'],
    })
    return searchEntries.length > 0
  } catch (error) {
    if (error instanceof NoSuchObjectError) {
      log.warn({ group }, 'LDAP group of FLAGMAN_LDAP_GROUP_ROLES not found')
      return false
    }
    throw error
  }
}
