import { describe, expect, it } from 'vitest'
import { cutRunnerKey, runnerServerUrl, runnerStartCommand } from './runner-secret'

describe('runnerServerUrl', () => {
  it('takes the configured web host without a trailing slash', () => {
    expect(runnerServerUrl('https://ci.example.test/', 'https://other.example.test')).toBe(
      'https://ci.example.test',
    )
  })

  it("takes the page's origin when the server reports none or only localhost", () => {
    expect(runnerServerUrl('', 'https://ci.example.test')).toBe('https://ci.example.test')
    expect(runnerServerUrl('http://localhost:3000', 'http://10.0.0.5:3000')).toBe(
      'http://10.0.0.5:3000',
    )
    expect(runnerServerUrl('http://localhost:3000', 'http://127.0.0.1:3000')).toBe(
      'http://localhost:3000',
    )
  })
})

describe('runnerStartCommand', () => {
  it('quotes only what a shell would read otherwise', () => {
    expect(runnerStartCommand({ server: 'http://h:1', token: "a b'c" })).toBe(
      `flagman runner start --server http://h:1 --token 'a b'\\''c' --private-key-file config.runner.key`,
    )
  })
})

describe('cutRunnerKey', () => {
  it('keeps short keys whole and cuts long ones at 90 characters', () => {
    expect(cutRunnerKey('abc')).toBe('abc')
    expect(cutRunnerKey('x'.repeat(91))).toBe(`${'x'.repeat(90)}…`)
  })
})
