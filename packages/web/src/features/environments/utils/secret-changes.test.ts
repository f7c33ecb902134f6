import type { EnvironmentSecret } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { secretChanges, secretToRow } from './secret-changes'

const stored: EnvironmentSecret[] = [
  { id: 1, name: 'TOKEN', type: 'env', secret: '', operation: '' },
  { id: 2, name: 'db_password', type: 'var', secret: '', operation: '' },
  { id: 3, name: 'API_KEY', type: 'env', secret: '', operation: '' },
]

describe('secretChanges', () => {
  it('sends nothing when nothing changed', () => {
    expect(secretChanges(stored, stored.map(secretToRow))).toEqual([])
  })

  it('creates new rows, deletes removed ones and updates those given a new value', () => {
    const [token, password] = stored.map(secretToRow)
    const rows = [
      { ...token!, value: 'new-token' },
      password!,
      { secretId: null, name: ' NEW ', type: 'var' as const, value: 'fresh' },
    ]
    expect(secretChanges(stored, rows)).toEqual([
      { operation: 'delete', id: 3 },
      { operation: 'update', id: 1, name: 'TOKEN', type: 'env', secret: 'new-token' },
      { operation: 'create', name: 'NEW', type: 'var', secret: 'fresh' },
    ])
  })

  it('creates every row of a new environment', () => {
    expect(secretChanges([], [{ secretId: null, name: 'A', type: 'env', value: '1' }])).toEqual([
      { operation: 'create', name: 'A', type: 'env', secret: '1' },
    ])
  })
})
