import { ROLE_PERMISSIONS } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { roleBanner } from './role-banner'

describe('roleBanner', () => {
  it('tells task runners they can run tasks and guests they can only look', () => {
    expect(roleBanner(false, ROLE_PERMISSIONS.task_runner)).toBe('runTasks')
    expect(roleBanner(false, ROLE_PERMISSIONS.guest)).toBe('readOnly')
  })

  it('shows nothing to owners, managers and admins', () => {
    expect(roleBanner(false, ROLE_PERMISSIONS.owner)).toBeNull()
    expect(roleBanner(false, ROLE_PERMISSIONS.manager)).toBeNull()
    expect(roleBanner(true, 0)).toBeNull()
  })
})
