import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { describeIssues } from '../common/errors.js'
import { hasPermission, ROLE_PERMISSIONS } from '../common/roles.js'
import { buildPath } from '../http.js'
import { CreateProjectBody, UpdateProjectBody } from '../projects/projects.schemas.js'
import { AddTeamMemberBody } from '../team/team.schemas.js'
import { CreateUserBody } from '../users/users.schemas.js'
import { displayVersion } from '../system/system.schemas.js'

function errorOf(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value)
  return result.success ? null : describeIssues(result.error.issues)
}

describe('role permissions', () => {
  it('maps each role to the compatible bits', () => {
    expect(ROLE_PERMISSIONS).toEqual({ owner: 15, manager: 5, task_runner: 1, guest: 0 })
    expect(hasPermission(5, 'manageProjectResources')).toBe(true)
    expect(hasPermission(5, 'updateProject')).toBe(false)
    expect(hasPermission(0, 'runProjectTasks')).toBe(false)
  })
})

describe('project bodies', () => {
  it.each([
    [{ name: 'Web' }, null],
    [{ name: '  ' }, 'Project name can not be empty'],
    [{}, 'Project name is required'],
    [{ name: 'x'.repeat(256) }, 'Project name must be at most 255 characters'],
    [{ name: 'a', max_parallel_tasks: -1 }, 'max_parallel_tasks must be 0 or greater'],
    [{ name: 'a', max_parallel_tasks: 1.5 }, 'max_parallel_tasks must be an integer'],
    [{ name: 'a', max_parallel_tasks: '2' }, 'max_parallel_tasks must be an integer'],
    [{ name: 'a', alert: 'yes' }, 'alert must be true or false'],
    // Undeclared fields are dropped, not refused (see RouteDef.body).
    [{ name: 'a', color: 'red' }, null],
    [{ name: 'a', type: 'gold' }, "type must be '' or 'premium'"],
  ])('create %j → %s', (body, expected) => {
    expect(errorOf(CreateProjectBody, body)).toBe(expected)
  })

  it('accepts a fetched project sent back for update', () => {
    const fetched = {
      id: 3,
      name: 'Web',
      created: '2026-01-01T00:00:00Z',
      alert: false,
      alert_chat: null,
      max_parallel_tasks: 0,
      type: '',
    }
    expect(UpdateProjectBody.safeParse(fetched).success).toBe(true)
  })

  it('drops fields it does not declare', () => {
    expect(CreateProjectBody.parse({ name: 'Web', color: 'red' })).not.toHaveProperty('color')
  })

  it('trims names', () => {
    expect(CreateProjectBody.parse({ name: '  Web  ' }).name).toBe('Web')
  })
})

describe('user and team bodies', () => {
  it.each([
    [{ username: 'a', name: 'A', email: 'a@x.io', password: 'p' }, null],
    [{ username: 'a b', name: 'A', email: 'a@x.io' }, 'username can not contain spaces'],
    [{ username: 'a', name: 'A', email: 'nope' }, 'email must be a valid email address'],
    [{ username: 'a', email: 'a@x.io' }, 'name is required'],
  ])('create user %j → %s', (body, expected) => {
    expect(errorOf(CreateUserBody, body)).toBe(expected)
  })

  it('only accepts the four roles', () => {
    expect(errorOf(AddTeamMemberBody, { user_id: 2, role: 'owner' })).toBeNull()
    expect(errorOf(AddTeamMemberBody, { user_id: 2, role: 'admin' })).toBe(
      'role must be one of owner, manager, task_runner, guest',
    )
  })
})

describe('helpers', () => {
  it('fills path parameters', () => {
    expect(
      buildPath('/api/project/:project_id/users/:user_id', { project_id: 3, user_id: 9 }),
    ).toBe('/api/project/3/users/9')
    expect(() => buildPath('/api/project/:project_id', {})).toThrow(/project_id/)
  })

  it('shows the version before the first hyphen', () => {
    expect(displayVersion('2.12.4-abc123-1700000000')).toBe('2.12.4')
    expect(displayVersion('0.1.0')).toBe('0.1.0')
  })
})
