import { describe, expect, it } from 'vitest'
import { badgeColor, projectInitials } from './project-badge'

describe('projectInitials', () => {
  it.each([
    ['Demo Project', 'DP'],
    ['my cool infra project', 'MC'],
    ['Infrastructure', 'IN'],
    ['x', 'X'],
    ['  spaced   out  ', 'SO'],
    ['web-servers', 'WE'],
    ['ünïcode wörds', 'ÜW'],
    ['', ''],
  ])('%j → %j', (name, initials) => {
    expect(projectInitials(name)).toBe(initials)
  })
})

describe('badgeColor', () => {
  it('rotates red, blue, orange, green by position', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(badgeColor)).toEqual([
      'red',
      'blue',
      'orange',
      'green',
      'red',
      'blue',
      'orange',
      'green',
      'red',
    ])
  })
})
