import { describe, expect, it } from 'vitest'
import { backendConfig, prettyState, shortLineage } from './backend-config'
import { formatSize } from './format-size'

describe('backendConfig', () => {
  it('points every address at the alias and uses the LOCK and UNLOCK methods', () => {
    const text = backendConfig('https://flagman.example/api/terraform/abc')
    expect(text).toContain('address        = "https://flagman.example/api/terraform/abc"')
    expect(text).toContain('lock_address   = "https://flagman.example/api/terraform/abc"')
    expect(text).toContain('unlock_address = "https://flagman.example/api/terraform/abc"')
    expect(text).toContain('lock_method    = "LOCK"')
    expect(text).toContain('unlock_method  = "UNLOCK"')
    expect(text).not.toMatch(/username|password/)
  })
})

describe('prettyState', () => {
  it('indents JSON and keeps other text', () => {
    expect(prettyState('{"version":4,"outputs":{}}')).toBe('{\n  "version": 4,\n  "outputs": {}\n}')
    expect(prettyState('not json')).toBe('not json')
  })
})

describe('shortLineage', () => {
  it('keeps the first block of a UUID', () => {
    expect(shortLineage('0b6e4a8c-1f2d-4c3b-9a8e-7d6c5b4a3f21')).toBe('0b6e4a8c…')
    expect(shortLineage('short')).toBe('short')
  })
})

describe('formatSize', () => {
  it('uses decimal units', () => {
    expect(formatSize(512, 'en')).toBe('512 bytes')
    expect(formatSize(1, 'en')).toBe('1 byte')
    expect(formatSize(1500, 'en')).toBe('1.5 kB')
    expect(formatSize(12_000_000, 'en')).toBe('12 MB')
  })
})
