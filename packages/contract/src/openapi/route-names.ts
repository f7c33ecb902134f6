import * as extra from '../extra-routes.js'
import { NAMED_ROUTES } from '../routes.js'

function isRoute(value: unknown): value is object {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * Each route's name: the contract's (NAMED_ROUTES), or for a route mounted outside the router
 * the constant that exports it. Names are stable as long as the constants keep theirs.
 */
function collectNames(): Map<object, string> {
  const names = new Map<object, string>(NAMED_ROUTES.map(([name, route]) => [route, name]))
  for (const [name, value] of Object.entries(extra)) {
    if (isRoute(value) && !names.has(value)) names.set(value, name)
  }
  return names
}

let cached: Map<object, string> | null = null

/** The route's constant name, or null for a route no route module exports. */
export function routeName(route: object): string | null {
  cached ??= collectNames()
  return cached.get(route) ?? null
}

/** A name made of the method and the path, for routes without a constant. */
export function nameFromPath(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api')
    .map((segment) =>
      segment.startsWith(':') ? `By${capitalized(camel(segment.slice(1)))}` : camel(segment),
    )
  return method.toLowerCase() + words.map(capitalized).join('')
}

function camel(text: string): string {
  return text.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, letter: string) => letter.toUpperCase())
}
