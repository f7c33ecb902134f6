#!/usr/bin/env node
// Fails when a key of the English locale files is missing in another language, so that no
// language shows raw keys or silently falls back to English, and when a namespace of a language
// is mostly English copies instead of translations. Extra keys are reported but allowed.
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

/** Plural forms i18next adds to a key (`lines_one`, `lines_few`, …). */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/
/** A namespace is an English copy when more than this share of its texts reads as in English. */
const COPY_SHARE = 0.5
/** …and at least this many texts; short namespaces of technical terms stay allowed. */
const COPY_MIN = 4

/** Whether a text has words to translate (not only placeholders, numbers or symbols). */
function hasWords(text) {
  return typeof text === 'string' && /\p{L}{3,}/u.test(text.replace(/\{\{[^}]*\}\}/g, ''))
}

/** Whether `key` (or, for a plural form, its `_other` form) is among `keys`. */
function hasKey(keys, key) {
  if (keys.has(key)) return true
  return PLURAL_SUFFIX.test(key) && keys.has(key.replace(PLURAL_SUFFIX, '_other'))
}

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
const copied = []

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
    let texts = 0
    let same = 0
    for (const key of keys.keys()) {
      if (!translated || !hasKey(translated, key)) missing.push(`${language}/${ns}.json: ${key}`)
      else if (typeof translated.get(key) !== 'string' || translated.get(key) === '') {
        if (translated.has(key)) empty.push(`${language}/${ns}.json: ${key}`)
      } else if (hasWords(keys.get(key))) {
        texts += 1
        if (translated.get(key) === keys.get(key)) same += 1
      }
    }
    if (same >= COPY_MIN && same > texts * COPY_SHARE) {
      copied.push(`${language}/${ns}.json: ${same} of ${texts} texts are the English ones`)
    }
  }
  for (const [ns, keys] of namespaces) {
    const known = reference.get(ns)
    for (const key of keys.keys()) {
      if (!known || !hasKey(known, key)) extra.push(`${language}/${ns}.json: ${key}`)
    }
  }
}

if (extra.length > 0) {
  console.warn(`Keys not in ${REFERENCE} (unused, may be removed):\n  ${extra.join('\n  ')}`)
}
const problems = [...missing, ...empty.map((entry) => `${entry} (empty)`), ...copied]
if (problems.length > 0) {
  console.error(`Missing translations (${problems.length}):\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`Locales complete: ${languages.length} languages match ${REFERENCE}.`)
