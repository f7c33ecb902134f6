/** Languages the console ships translations for (folder names under `src/locales`). */
export const SUPPORTED_LANGUAGES = [
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
] as const
export type Language = (typeof SUPPORTED_LANGUAGES)[number]

export const FALLBACK_LANGUAGE: Language = 'en'

/** Value stored in `lang` when the console follows the browser's language. */
export const SYSTEM_LANGUAGE = 'system'

export interface LanguageChoice {
  /** Code stored in local storage (`lang`); the compatible console uses underscores. */
  code: string
  /** The language's own name; it reads the same whatever language the console is in. */
  nativeName: string
}

/**
 * The entries of the language menu, after "System", in this order: the compatible console's
 * order, then the languages it lacks.
 */
export const LANGUAGE_CHOICES: readonly LanguageChoice[] = [
  { code: 'en', nativeName: 'English' },
  { code: 'es', nativeName: 'Español' },
  { code: 'ru', nativeName: 'Русский' },
  { code: 'de', nativeName: 'Deutsch' },
  { code: 'zh_cn', nativeName: '简体中文' },
  { code: 'zh_tw', nativeName: '繁體中文' },
  { code: 'fr', nativeName: 'Français' },
  { code: 'it', nativeName: 'Italiano' },
  { code: 'pl', nativeName: 'Polski' },
  { code: 'pt', nativeName: 'Português' },
  { code: 'pt_br', nativeName: 'Português (Brasil)' },
  { code: 'ja', nativeName: '日本語' },
  { code: 'ko', nativeName: '한국어' },
  { code: 'nl', nativeName: 'Nederlands' },
  { code: 'uk', nativeName: 'Українська' },
]

/**
 * The short code shown beside a language's name ("PT-BR"). Letters, not flag emoji: those
 * need a colour-emoji font and render as empty boxes without one.
 */
export function languageTag(code: string): string {
  return code.replace(/_/g, '-').toUpperCase()
}

function isSupported(value: string): value is Language {
  return SUPPORTED_LANGUAGES.some((lang) => lang === value)
}

/** Maps a stored code or a browser tag (`pt_BR`, `pt-BR`, `zh-Hant-TW`, `de-AT`) to a language. */
export function matchLanguage(tag: string): Language | null {
  const normalised = tag.trim().toLowerCase().replace(/_/g, '-')
  if (!normalised) return null
  if (isSupported(normalised)) return normalised
  const [base, ...rest] = normalised.split('-')
  if (base === 'zh') {
    const traditional = rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part))
    return traditional ? 'zh-tw' : 'zh-cn'
  }
  if (base && isSupported(base)) return base
  return null
}

/**
 * The language to show: the stored choice, or with no choice (or "System") the first browser
 * language the console has, or the fallback.
 */
export function resolveLanguage(
  stored: string | null,
  browserLanguages: readonly string[],
): Language {
  if (stored && stored !== SYSTEM_LANGUAGE) {
    const chosen = matchLanguage(stored)
    if (chosen) return chosen
  }
  for (const tag of browserLanguages) {
    const match = matchLanguage(tag)
    if (match) return match
  }
  return FALLBACK_LANGUAGE
}
