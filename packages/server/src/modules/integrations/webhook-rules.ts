import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/*
 * The pure rules of a webhook delivery: authentication, matchers and extracted values.
 * Nothing here reads the database or logs.
 */

/** Compares two texts in time independent of where they differ (equal-length digests). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest()
  const b = createHash('sha256').update(expected, 'utf8').digest()
  return timingSafeEqual(a, b) && given.length === expected.length
}

/** A request header as one text; repeated headers are joined as HTTP joins them. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()]
  if (value === undefined) return undefined
  return Array.isArray(value) ? value.join(', ') : value
}

function hmacHex(body: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex')
}

export interface AuthSettings {
  method: string
  header: string
  /** The integration's secret; null when none is stored, which fails every check. */
  secret: string | null
}

/** Whether a delivery proves it comes from whoever holds the integration's secret. */
export function authenticate(
  auth: AuthSettings,
  headers: IncomingHttpHeaders,
  body: Buffer,
): boolean {
  if (auth.method === '') return true
  if (auth.secret === null || auth.secret === '') return false
  switch (auth.method) {
    case 'github': {
      const given = headerText(headers, 'x-hub-signature-256')
      if (given === undefined) return false
      return safeEqual(given.trim().toLowerCase(), `sha256=${hmacHex(body, auth.secret)}`)
    }
    case 'hmac': {
      if (auth.header === '') return false
      const given = headerText(headers, auth.header)
      if (given === undefined) return false
      return safeEqual(given.trim().toLowerCase(), hmacHex(body, auth.secret))
    }
    case 'token': {
      if (auth.header === '') return false
      const given = headerText(headers, auth.header)
      if (given === undefined) return false
      return safeEqual(given, auth.secret)
    }
    default:
      return false
  }
}

/** The delivery's body, read lazily: as text and, once asked, as JSON. */
export class DeliveryBody {
  private parsed: { ok: boolean; value: unknown } | null = null

  constructor(readonly raw: Buffer) {}

  get text(): string {
    return this.raw.toString('utf8')
  }

  /** The body as JSON, or undefined when it is not JSON. */
  json(): { ok: boolean; value: unknown } {
    if (!this.parsed) {
      try {
        this.parsed = { ok: true, value: JSON.parse(this.text) as unknown }
      } catch {
        this.parsed = { ok: false, value: undefined }
      }
    }
    return this.parsed
  }
}

/** A value of a JSON document at a dotted path (`a.b.0.c`); undefined when absent. */
export function valueAtPath(document: unknown, path: string): unknown {
  let current: unknown = document
  for (const step of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)]
    else if (typeof current === 'object' && current !== null && !Array.isArray(current)) {
      current = Object.prototype.hasOwnProperty.call(current, step)
        ? (current as Record<string, unknown>)[step]
        : undefined
    } else return undefined
    if (current === undefined) return undefined
  }
  return current
}

/** A JSON value as text: strings as they are, whole numbers without decimals. */
export function valueText(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

export interface SourceRule {
  /** `header` or `body`. */
  source: string
  /** `json` or `string` for a body. */
  bodyDataType: string
  key: string
}

/** The text a rule reads from a delivery; undefined when it is not there. */
export function readSource(
  rule: SourceRule,
  headers: IncomingHttpHeaders,
  body: DeliveryBody,
): string | undefined {
  if (rule.source === 'header') return headerText(headers, rule.key)
  if (rule.source !== 'body') return undefined
  if (rule.bodyDataType === 'string') return body.text
  if (rule.bodyDataType !== 'json') return undefined
  const json = body.json()
  if (!json.ok) return undefined
  return valueText(valueAtPath(json.value, rule.key))
}

export interface MatcherRule extends SourceRule {
  method: string
  value: string
}

/** Whether one matcher holds for a delivery. A body matcher on a non-JSON body never does. */
export function matches(
  rule: MatcherRule,
  headers: IncomingHttpHeaders,
  body: DeliveryBody,
): boolean {
  if (rule.source === 'body' && rule.bodyDataType === 'json' && !body.json().ok) return false
  const actual = readSource(rule, headers, body) ?? ''
  switch (rule.method) {
    case 'equals':
      return actual === rule.value
    case 'unequals':
      return actual !== rule.value
    case 'contains':
      return actual.includes(rule.value)
    default:
      return false
  }
}
