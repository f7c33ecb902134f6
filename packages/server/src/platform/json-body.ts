import type { FastifyInstance } from 'fastify'
import { BadRequestError } from './errors.js'

/**
 * Deepest nesting of arrays and objects a JSON text may have. Real payloads (backups, survey
 * variables, Terraform states) stay far below it; far deeper texts would drive the recursive
 * walks that follow parsing (validation, NUL checks, serialisation) past the stack.
 */
export const MAX_JSON_DEPTH = 100

/**
 * How deeply the JSON text nests arrays and objects, counted without recursion and without
 * parsing: brackets inside strings (escapes included) do not count. Stops counting once
 * `limit` is passed, so a huge text costs no more than one pass. Malformed text is left to
 * the parser; only the bracket depth is judged here.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c /* \ */) i += 1
      else if (c === 0x22 /* " */) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1
      if (depth > limit) return true
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth -= 1
    }
  }
  return false
}

/** The sentence a too-deep text is refused with; `what` names it, e.g. "Extra variables". */
export function tooDeepMessage(what = 'JSON'): string {
  return `${what} nesting is too deep (at most ${MAX_JSON_DEPTH} levels of arrays and objects)`
}

/**
 * Every request body is read as JSON, whatever its Content-Type: API clients such as
 * `curl -d` send JSON labelled as a form, and the compatible API accepts it. Cookie-
 * authenticated requests that are not labelled JSON are refused earlier (security.ts), so a
 * cross-site form still cannot act. An empty body counts as no body. A body nested deeper
 * than MAX_JSON_DEPTH is refused before it is parsed.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  const parseJson = (
    _request: unknown,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ): void => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    if (jsonDepthExceeds(text)) return done(new BadRequestError(tooDeepMessage()), undefined)
    try {
      done(null, JSON.parse(text))
    } catch (error) {
      done(error as Error, undefined)
    }
  }
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson)
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson)
}
