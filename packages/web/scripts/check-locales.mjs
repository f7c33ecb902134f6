#!/usr/bin/env node
// Fails when a key of the English locale files is missing in another language, so that no
// language shows raw keys or silently falls back to English. Extra keys are reported but allowed.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const localesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales')
const REFERENCE = 'en'
/** Every language the console ships; a missing folder is an error too. */
const LANGUAGES = [
  'de',
  'en',
  'es',
  'fr',
  'it',
  'ja',
  'ko',
  'nl',
  'pl',
  'pt',
  'pt-br',
  'ru',
  'uk',
  'zh-cn',
  'zh-tw',
]

function flatten(value, prefix = '', out = new Map()) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out)
    }
  } else {
    out.set(prefix, value)
  }
  return out
}

function readNamespaces(language) {
  const dir = join(localesDir, language)
  const namespaces = new Map()
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const path = join(dir, file)
    try {
      namespaces.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(path, 'utf8'))))
    } catch (error) {
      throw new Error(`${language}/${file}: ${error instanceof Error ? error.message : error}`, {
        cause: error,
      })
    }
  }
  return namespaces
}

const languages = readdirSync(localesDir).filter((name) =>
  statSync(join(localesDir, name)).isDirectory(),
)
const reference = readNamespaces(REFERENCE)
const missing = LANGUAGES.filter((name) => !languages.includes(name)).map(
  (name) => `${name}: the folder src/locales/${name} is missing`,
)
const extra = []
const empty = []

for (const language of languages.filter((name) => name !== REFERENCE).sort()) {
  let namespaces
  try {
    namespaces = readNamespaces(language)
  } catch (error) {
    missing.push(String(error instanceof Error ? error.message : error))
    continue
  }
  for (const [ns, keys] of reference) {
    const translated = namespaces.get(ns)
    for (const key of keys.keys()) {
      if (!translated || !translated.has(key)) missing.push(`${language}/${ns}.json: ${key}`)
      else if (typeof translated.get(key) !== 'string' || translated.get(key) === '') {
        empty.push(`${language}/${ns}.json: ${key}`)
      }
    }
  }
  for (const [ns, keys] of namespaces) {
    const known = reference.get(ns)
    for (const key of keys.keys()) {
      if (!known || !known.has(key)) extra.push(`${language}/${ns}.json: ${key}`)
    }
  }
}

if (extra.length > 0) {
  console.warn(`Keys not in ${REFERENCE} (unused, may be removed):\n  ${extra.join('\n  ')}`)
}
const problems = [...missing, ...empty.map((entry) => `${entry} (empty)`)]
if (problems.length > 0) {
  console.error(`Missing translations (${problems.length}):\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`Locales complete: ${languages.length} languages match ${REFERENCE}.`)
