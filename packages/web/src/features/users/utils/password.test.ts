import { describe, expect, it } from 'vitest'
import { passwordLength, samplePassword, SAMPLE_PASSWORD_LENGTH } from './password'

describe('samplePassword', () => {
  it('makes 10 random letters and digits', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 50; i += 1) {
      const password = samplePassword()
      expect(password).toMatch(/^[A-Za-z0-9]{10}$/)
      seen.add(password)
    }
    expect(SAMPLE_PASSWORD_LENGTH).toBe(10)
    expect(seen.size).toBe(50)
  })

  it('draws again rather than favour some characters', () => {
    // 248 and above would make the first characters likelier: they are skipped.
    const bytes = [255, 250, 248, 0, 61, 62]
    let call = 0
    const password = samplePassword(3, (count) => {
      call += 1
      return Uint8Array.from({ length: count }, (_, i) => bytes[i] ?? 1)
    })
    expect(password).toBe('A9A')
    expect(call).toBe(1)
  })
})

describe('passwordLength', () => {
  it('counts characters as people see them', () => {
    expect(passwordLength('abc')).toBe(3)
    expect(passwordLength('🔑🔑')).toBe(2)
  })
})
