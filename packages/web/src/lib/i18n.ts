import i18next, { type Resource, type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { FALLBACK_LANGUAGE, type Language, resolveLanguage } from './languages'
import { readStorage, storageKeys, writeStorage } from './storage'

export const NAMESPACES = [
  'common',
  'auth',
  'shell',
  'projects',
  'users',
  'team',
  'keys',
  'repositories',
  'inventories',
  'environments',
  'activity',
  'references',
  'templates',
  'apps',
  'tasks',
  'schedules',
  'integrations',
  'runners',
  'subscription',
  'install',
  'news',
] as const
export type Namespace = (typeof NAMESPACES)[number]

type JsonModule = { default: ResourceLanguage[string] }

// Each language is its own chunk, loaded only when it is shown.
const loaders = import.meta.glob<JsonModule>('../locales/*/*.json')

async function loadLanguage(language: Language): Promise<ResourceLanguage> {
  const entries = await Promise.all(
    NAMESPACES.map(async (ns) => {
      const load = loaders[`../locales/${language}/${ns}.json`]
      const module = load ? await load() : { default: {} }
      return [ns, module.default] as const
    }),
  )
  return Object.fromEntries(entries)
}

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return []
  return navigator.languages?.length ? navigator.languages : [navigator.language]
}

export function currentLanguage(): Language {
  return resolveLanguage(readStorage(storageKeys.lang), browserLanguages())
}

/** Loads the shown language (and the fallback) before the first render. */
export async function initI18n(language: Language = currentLanguage()): Promise<typeof i18next> {
  const languages = Array.from(new Set<Language>([language, FALLBACK_LANGUAGE]))
  const loaded = await Promise.all(languages.map(loadLanguage))
  const resources: Resource = {}
  languages.forEach((lng, index) => {
    resources[lng] = loaded[index] ?? {}
  })
  await i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: false,
    lowerCaseLng: true,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  if (typeof document !== 'undefined') document.documentElement.lang = language
  return i18next
}

/**
 * Stores the language choice (a menu code; `null` follows the browser again) and reloads, so that
 * every text, including those already cached by queries, is shown in the new language.
 */
export function changeLanguage(code: string | null): void {
  writeStorage(storageKeys.lang, code)
  window.location.reload()
}
