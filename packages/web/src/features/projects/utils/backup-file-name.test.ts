import { describe, expect, it } from 'vitest'
import { backupFileName } from './backup-file-name'

describe('backupFileName', () => {
  const day = new Date(2026, 10, 24, 9, 30)

  it('names the file after the project and the local day', () => {
    expect(backupFileName('Web servers', day)).toBe('project-Web-servers-2026-11-24.json')
  })

  it('keeps letters of every script and drops what file systems refuse', () => {
    expect(backupFileName('Café / prod: "eu"', day)).toBe('project-Cafe-prod-eu-2026-11-24.json')
    expect(backupFileName('Проект 1', day)).toBe('project-Проект-1-2026-11-24.json')
    expect(backupFileName('../..', day)).toBe('project-backup-2026-11-24.json')
  })
})
