import { describe, expect, it } from 'vitest'
import {
  LANGUAGE_CHOICES,
  languageTag,
  matchLanguage,
  resolveLanguage,
  SUPPORTED_LANGUAGES,
} from './languages'

describe('resolveLanguage', () => {
  it('uses the stored choice, written with an underscore', () => {
    expect(resolveLanguage('pt_br', ['de-DE'])).toBe('pt-br')
    expect(resolveLanguage('zh_tw', [])).toBe('zh-tw')
  })
  it('follows the browser for System or no choice', () => {
    expect(resolveLanguage('system', ['de-AT', 'en'])).toBe('de')
    expect(resolveLanguage(null, ['fr-CA'])).toBe('fr')
    expect(resolveLanguage(null, ['zh-Hant-TW'])).toBe('zh-tw')
    expect(resolveLanguage(null, ['zh'])).toBe('zh-cn')
  })
  it('falls back to English', () => {
    expect(resolveLanguage('xx', ['sv-SE'])).toBe('en')
    expect(resolveLanguage(null, [])).toBe('en')
  })
})

describe('language menu', () => {
  it('offers all 15 shipped languages, the compatible order first, none as emoji', () => {
    expect(LANGUAGE_CHOICES.map((choice) => choice.code)).toEqual([
      'en',
      'es',
      'ru',
      'de',
      'zh_cn',
      'zh_tw',
      'fr',
      'it',
      'pl',
      'pt',
      'pt_br',
      'ja',
      'ko',
      'nl',
      'uk',
    ])
    const offered = LANGUAGE_CHOICES.map((choice) => matchLanguage(choice.code))
    expect([...offered].sort()).toEqual([...SUPPORTED_LANGUAGES].sort())
    for (const choice of LANGUAGE_CHOICES) {
      // Letters only: flag emoji render as empty boxes without a colour-emoji font.
      expect(languageTag(choice.code)).toMatch(/^[A-Z]{2}(-[A-Z]{2})?$/)
      expect(choice.nativeName).not.toMatch(/\p{Extended_Pictographic}|\p{Regional_Indicator}/u)
    }
  })
})
