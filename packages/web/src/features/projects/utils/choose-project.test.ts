import { describe, expect, it } from 'vitest'
import { chooseProject, projectAfterDelete } from './choose-project'

const projects = [{ id: 3 }, { id: 7 }, { id: 9 }]

describe('chooseProject', () => {
  it('prefers the project in the URL', () => {
    expect(chooseProject(projects, 9, 7)?.id).toBe(9)
  })
  it('then the project stored locally', () => {
    expect(chooseProject(projects, null, 7)?.id).toBe(7)
    expect(chooseProject(projects, 42, 7)?.id).toBe(7)
  })
  it('then the first project', () => {
    expect(chooseProject(projects, null, 42)?.id).toBe(3)
  })
  it('gives nothing without projects', () => {
    expect(chooseProject([], 1, 2)).toBeNull()
  })
})

describe('projectAfterDelete', () => {
  it('selects the first remaining project', () => {
    expect(projectAfterDelete(projects, 3)?.id).toBe(7)
    expect(projectAfterDelete(projects, 7)?.id).toBe(3)
    expect(projectAfterDelete([{ id: 1 }], 1)).toBeNull()
  })
})
