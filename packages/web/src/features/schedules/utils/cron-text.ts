import { toString as cronToString } from 'cronstrue'
import { useEffect, useState } from 'react'

/**
 * cronstrue's locale for each console language other than English, loaded on first use: each
 * locale file registers itself with cronstrue when imported.
 */
const LOCALES: Record<string, { code: string; load: () => Promise<unknown> }> = {
  de: { code: 'de', load: () => import('cronstrue/locales/de.js') },
  es: { code: 'es', load: () => import('cronstrue/locales/es.js') },
  fr: { code: 'fr', load: () => import('cronstrue/locales/fr.js') },
  it: { code: 'it', load: () => import('cronstrue/locales/it.js') },
  ja: { code: 'ja', load: () => import('cronstrue/locales/ja.js') },
  ko: { code: 'ko', load: () => import('cronstrue/locales/ko.js') },
  nl: { code: 'nl', load: () => import('cronstrue/locales/nl.js') },
  pl: { code: 'pl', load: () => import('cronstrue/locales/pl.js') },
  pt: { code: 'pt_PT', load: () => import('cronstrue/locales/pt_PT.js') },
  'pt-br': { code: 'pt_BR', load: () => import('cronstrue/locales/pt_BR.js') },
  ru: { code: 'ru', load: () => import('cronstrue/locales/ru.js') },
  uk: { code: 'uk', load: () => import('cronstrue/locales/uk.js') },
  'zh-cn': { code: 'zh_CN', load: () => import('cronstrue/locales/zh_CN.js') },
  'zh-tw': { code: 'zh_TW', load: () => import('cronstrue/locales/zh_TW.js') },
}

const ready = new Set<string>(['en'])

/**
 * cronstrue's locale code for the console's language once it is loaded; `null` while it is
 * loading (or when it can not be), so that nothing is described in the wrong language.
 */
export function useCronLocale(language: string): string | null {
  const entry = LOCALES[language.toLowerCase()]
  const code = entry?.code ?? 'en'
  const [loaded, setLoaded] = useState(() => ready.has(code))
  useEffect(() => {
    if (!entry || ready.has(code)) {
      setLoaded(true)
      return
    }
    let current = true
    entry
      .load()
      .then(() => {
        ready.add(code)
        if (current) setLoaded(true)
      })
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [entry, code])
  return loaded ? code : null
}

/** A sentence for any expression cronstrue reads, in 24-hour time; `null` when it can not. */
export function cronSentence(expression: string, locale: string): string | null {
  try {
    return cronToString(expression, {
      locale,
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    })
  } catch {
    return null
  }
}
