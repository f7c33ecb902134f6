import { describe, expect, it } from 'vitest'
import { LANGUAGE_CHOICES, matchLanguage, resolveLanguage, SUPPORTED_LANGUAGES } from './languages'

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
  it('offers the spec languages, each with a flag, all of them shipped', () => {
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
    ])
    for (const choice of LANGUAGE_CHOICES) {
      expect(choice.flag).not.toBe('')
      expect(SUPPORTED_LANGUAGES).toContain(matchLanguage(choice.code))
    }
  })
})
