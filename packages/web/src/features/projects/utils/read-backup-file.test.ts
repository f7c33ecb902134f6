import { describe, expect, it } from 'vitest'
import { readBackupFile } from './read-backup-file'

function file(text: string): File {
  return new File([text], 'backup.json', { type: 'application/json' })
}

describe('readBackupFile', () => {
  it('reads a backup and its project name', async () => {
    const result = await readBackupFile(file('{"meta":{"name":"Web"},"keys":[]}'))
    expect(result).toEqual({ ok: true, backup: { meta: { name: 'Web' }, keys: [] }, name: 'Web' })
  })

  it('refuses text that is not JSON, with the parser reason', async () => {
    const result = await readBackupFile(file('{nope'))
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.reason).toMatch(/JSON|property|token/i)
  })

  it('refuses JSON without a meta section', async () => {
    expect(await readBackupFile(file('[1,2]'))).toEqual({ ok: false, reason: 'meta' })
  })
})
