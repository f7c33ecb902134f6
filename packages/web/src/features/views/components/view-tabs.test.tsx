import type { View } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ViewTabs } from './view-tabs'

const SLOW_TEST_MS = 20_000

const views: View[] = [
  { id: 4, project_id: 3, title: 'Web', position: 1 },
  { id: 2, project_id: 3, title: 'Ops', position: 0 },
]

function renderTabs() {
  renderWithProviders(
    <ViewTabs
      projectId={3}
      views={views}
      currentViewId={null}
      hrefFor={(id) => (id === null ? '/project/3/templates' : `/project/3/views/${id}/templates`)}
      canManage
    />,
  )
}

describe('ViewTabs', { timeout: SLOW_TEST_MS }, () => {
  it('shows All and the views by position', () => {
    mockFetch({})
    renderTabs()
    const tabs = within(screen.getByRole('tablist', { name: 'Views' })).getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual(['All', 'Ops', 'Web'])
  })

  it('saves added, renamed and reordered views with a positions map', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/views': {
        status: 201,
        body: { id: 9, project_id: 3, title: 'New', position: 2 },
      },
      'PUT /api/project/3/views/2': { status: 204 },
      'POST /api/project/3/views/positions': { status: 204 },
      'GET /api/project/3/views': { body: views },
    })
    renderTabs()
    await userEvent.click(screen.getByRole('button', { name: 'Edit views' }))
    const titles = () => screen.getAllByRole('textbox', { name: 'View title' })
    await userEvent.clear(titles()[0] as HTMLElement)
    await userEvent.type(titles()[0] as HTMLElement, 'Operations')
    await userEvent.click(screen.getByRole('button', { name: 'Move Web left' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add view' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save views' }))
    expect(await screen.findByText('View title can not be empty')).toBeInTheDocument()
    await userEvent.type(titles()[2] as HTMLElement, 'New')
    await userEvent.click(screen.getByRole('button', { name: 'Save views' }))
    expect(await screen.findByText('Views saved')).toBeInTheDocument()

    const writes = requests.filter((request) => request.method !== 'GET')
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /api/project/3/views/2',
      'POST /api/project/3/views',
      'POST /api/project/3/views/positions',
    ])
    expect(writes[0]?.body).toEqual({ id: 2, title: 'Operations', position: 1, project_id: 3 })
    expect(writes[1]?.body).toEqual({ title: 'New', position: 2, project_id: 3 })
    expect(writes[2]?.body).toEqual({ '4': 0, '2': 1, '9': 2 })
  })

  it('deletes removed views and leaves everything as it was on cancel', async () => {
    const { requests } = mockFetch({
      'DELETE /api/project/3/views/4': { status: 204 },
      'POST /api/project/3/views/positions': { status: 204 },
      'GET /api/project/3/views': { body: views },
    })
    renderTabs()
    await userEvent.click(screen.getByRole('button', { name: 'Edit views' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete view Web' }))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel editing' }))
    expect(requests).toHaveLength(0)
    expect(screen.getByRole('tab', { name: 'Web' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Edit views' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete view Web' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save views' }))
    expect(await screen.findByText('Views saved')).toBeInTheDocument()
    const writes = requests.filter((request) => request.method !== 'GET')
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /api/project/3/views/4',
      'POST /api/project/3/views/positions',
    ])
    expect(writes[1]?.body).toEqual({ '2': 0 })
  })
})
