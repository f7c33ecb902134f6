import type { Event } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keysetServer } from '../../../testing/keyset-server'
import { renderWithProviders } from '../../../testing/render'
import { ACTIVITY_PAGE_SIZE } from '../api/get-events'
import { ProjectActivity } from './project-activity'

function event(id: number): Event & { id: number } {
  return {
    id,
    user_id: 1,
    project_id: 4,
    integration_id: null,
    object_id: id,
    object_type: 'task',
    description: `Task ID ${id} queued for running`,
    created: new Date(Date.UTC(2026, 0, 1) + id * 60_000).toISOString(),
    object_name: '',
    project_name: 'Alpha',
    username: 'ann',
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1)

describe('ProjectActivity', () => {
  it('shows the newest page and loads older events by cursor on "Show more"', async () => {
    const events = Array.from({ length: 150 }, (_, i) => event(150 - i))
    const server = keysetServer('/api/project/4/events', events)
    renderWithProviders(<ProjectActivity projectId={4} />)
    await screen.findByRole('table')
    expect(rows()).toHaveLength(ACTIVITY_PAGE_SIZE)
    expect(server.queries).toEqual([{ limit: String(ACTIVITY_PAGE_SIZE) }])

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }))
    await waitFor(() => expect(rows()).toHaveLength(150))
    expect(server.queries[1]).toEqual({ limit: String(ACTIVITY_PAGE_SIZE), before_id: '51' })
    expect(rows()[0]).toHaveTextContent('Task ID 150 queued for running')
    expect(rows()[149]).toHaveTextContent('Task ID 1 queued for running')
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
  })

  it('offers no "Show more" when everything fits on the first page', async () => {
    keysetServer('/api/project/4/events', [event(2), event(1)])
    renderWithProviders(<ProjectActivity projectId={4} />)
    await screen.findByRole('table')
    expect(rows()).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
  })
})
