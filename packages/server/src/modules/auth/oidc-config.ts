import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { z } from 'zod'

/** One OpenID Connect provider of `FLAGMAN_OIDC_CONFIG`, checked and with its files read. */
export interface OidcProviderConfig {
  id: string
  displayName: string
  color: string
  icon: string
  order: number
  /** Issuer whose discovery document describes the provider. */
  providerUrl: string | null
  /** Endpoints given by hand instead of discovery. */
  endpoint: {
    issuer: string
    auth: string
    token: string
    userinfo: string | null
    jwks: string
    algorithms: string[]
  } | null
  clientId: string
  /** Empty for a public client (PKCE only). */
  clientSecret: string
  /** Callback address registered at the provider; empty: derived from the console's address. */
  redirectUrl: string
  scopes: string[]
  usernameClaim: string[]
  nameClaim: string[]
  emailClaim: string[]
}

/** Provider ids appear in addresses, so they are kept to letters, digits, `_` and `-`. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/

const httpUrl = () =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value)
        return url.protocol === 'https:' || url.protocol === 'http:'
      } catch {
        return false
      }
    }, 'must be an http(s) address')

const text = () => z.string({ error: 'must be a string' })

const claim = () =>
  text()
    .refine((value) => !value.includes('{{'), 'templates are not supported, use "a | b"')
    .optional()

const ProviderSchema = z.strictObject({
  display_name: text().optional(),
  color: text().optional(),
  icon: text().optional(),
  order: z.number({ error: 'must be a number' }).int('must be an integer').optional(),
  provider_url: httpUrl().optional(),
  endpoint: z
    .strictObject({
      issuer: httpUrl(),
      auth: httpUrl(),
      token: httpUrl(),
      userinfo: httpUrl().optional(),
      jwks: httpUrl(),
      algorithms: z.array(text()).optional(),
    })
    .optional(),
  client_id: text().optional(),
  client_id_file: text().optional(),
  client_secret: text().optional(),
  client_secret_file: text().optional(),
  redirect_url: httpUrl().optional(),
  scopes: z.array(text()).optional(),
  username_claim: claim(),
  name_claim: claim(),
  email_claim: claim(),
})

type ProviderInput = z.output<typeof ProviderSchema>

const DEFAULT_SCOPES = ['openid', 'profile', 'email']

/** `a | b`: the names of the claims to try, in order. */
function claimNames(value: string | undefined, fallback: string): string[] {
  const names = (value ?? fallback)
    .split('|')
    .map((name) => name.trim())
    .filter(Boolean)
  return names.length > 0 ? names : [fallback]
}

/** The value itself, or the trimmed first line of the file named (relative to the config file). */
function valueOrFile(
  id: string,
  label: string,
  value: string | undefined,
  file: string | undefined,
  base: string,
): string {
  if (value !== undefined && file !== undefined) {
    throw new Error(`provider "${id}": give either ${label} or ${label}_file, not both`)
  }
  if (file === undefined) return (value ?? '').trim()
  try {
    return readFileSync(resolve(base, file), 'utf8').trim()
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new Error(`provider "${id}": can not read ${label}_file (${reason})`, { cause: error })
  }
}

function toProvider(id: string, input: ProviderInput, base: string): OidcProviderConfig {
  if (!PROVIDER_ID.test(id)) {
    throw new Error(`provider id "${id}" may only hold letters, digits, "_" and "-"`)
  }
  if (!input.provider_url === !input.endpoint) {
    throw new Error(`provider "${id}": give either provider_url or endpoint`)
  }
  const clientId = valueOrFile(id, 'client_id', input.client_id, input.client_id_file, base)
  if (!clientId) throw new Error(`provider "${id}": client_id is required`)
  const clientSecret = valueOrFile(
    id,
    'client_secret',
    input.client_secret,
    input.client_secret_file,
    base,
  )
  const scopes = input.scopes?.length ? input.scopes : DEFAULT_SCOPES
  if (!scopes.includes('openid')) throw new Error(`provider "${id}": scopes must include openid`)
  const endpoint = input.endpoint
  return {
    id,
    displayName: input.display_name?.trim() || id,
    color: input.color?.trim() ?? '',
    icon: input.icon?.trim() ?? '',
    order: input.order ?? 0,
    providerUrl: input.provider_url ?? null,
    endpoint: endpoint
      ? {
          issuer: endpoint.issuer,
          auth: endpoint.auth,
          token: endpoint.token,
          userinfo: endpoint.userinfo ?? null,
          jwks: endpoint.jwks,
          algorithms: endpoint.algorithms ?? [],
        }
      : null,
    clientId,
    clientSecret,
    redirectUrl: input.redirect_url ?? '',
    scopes,
    usernameClaim: claimNames(input.username_claim, 'preferred_username'),
    nameClaim: claimNames(input.name_claim, 'preferred_username'),
    emailClaim: claimNames(input.email_claim, 'email'),
  }
}

/**
 * Reads the providers from the JSON file `FLAGMAN_OIDC_CONFIG` names (an object keyed by
 * provider id), sorted by `order` then id. An empty path means no providers. Any mistake
 * stops the server with a message naming it; secrets never appear in those messages.
 */
export function loadOidcProviders(path: string): OidcProviderConfig[] {
  if (!path.trim()) return []
  const file = resolve(path)
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new Error(`can not read ${file} (${reason})`, { cause: error })
  }
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch (error) {
    throw new Error(`${file} is not valid JSON`, { cause: error })
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error(`${file} must hold a JSON object keyed by provider id`)
  }
  const base = dirname(file)
  const providers = Object.entries(json).map(([id, value]) => {
    const parsed = ProviderSchema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
      const message =
        issue?.code === 'unrecognized_keys'
          ? `unknown key ${issue.keys.join(', ')}`
          : issue?.message
      throw new Error(`provider "${id}": ${where}${message}`)
    }
    return toProvider(id, parsed.data, base)
  })
  return providers.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
}
