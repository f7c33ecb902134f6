import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { listedTaskFixture } from '../../../testing/fixtures'
import { keysetServer } from '../../../testing/keyset-server'
import { renderWithProviders } from '../../../testing/render'
import { HISTORY_PAGE_SIZE } from '../api/tasks'
import { ProjectHistory } from './project-history'

const history = (count: number) =>
  Array.from({ length: count }, (_, i) => listedTaskFixture({ id: count - i, project_id: 4 }))

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('ProjectHistory', () => {
  it('loads the newest page, then older pages by cursor as the table pages back', async () => {
    const server = keysetServer('/api/project/4/tasks', history(230))
    renderWithProviders(<ProjectHistory projectId={4} />, { route: '/project/4/history' })
    expect(await screen.findByText('1–20 of more than 20')).toBeInTheDocument()
    expect(server.queries[0]).toEqual({ limit: String(HISTORY_PAGE_SIZE) })

    const next = () => userEvent.click(screen.getByRole('button', { name: /next page/i }))
    // Five table pages a request: the next request goes out only when the loaded part runs out.
    for (let page = 1; page < 5; page += 1) await next()
    await waitFor(() => expect(server.queries).toHaveLength(2))
    expect(server.queries[1]).toEqual({ limit: String(HISTORY_PAGE_SIZE), before_id: '131' })
    expect(screen.getByRole('link', { name: '#131' })).toBeInTheDocument()

    for (let page = 5; page < 12; page += 1) await next()
    await waitFor(() => expect(server.queries).toHaveLength(3))
    expect(server.queries[2]).toEqual({ limit: String(HISTORY_PAGE_SIZE), before_id: '31' })
    // The last page was not full: the total is known and nothing more is asked for.
    expect(await screen.findByText('221–230 of 230')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '#1' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled()
    expect(server.queries).toHaveLength(3)
  })

  it('shows a short history whole, with no page controls', async () => {
    const server = keysetServer('/api/project/4/tasks', history(3))
    renderWithProviders(<ProjectHistory projectId={4} />, { route: '/project/4/history' })
    expect(await screen.findByRole('link', { name: '#3' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /next page/i })).not.toBeInTheDocument()
    expect(server.queries).toHaveLength(1)
  })
})
