import type { Runner } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RunnersPage } from './runners-page'

const busy: Runner = {
  id: 5,
  project_id: null,
  name: 'builder',
  webhook: '',
  max_parallel_tasks: 0,
  active: true,
  tag: '',
  touched: null,
  online: false,
  running_tasks: [{ task_id: 41, project_id: 3, status: 'running' }],
}

function renderPage() {
  renderWithProviders(
    <RunnersPage
      scope={{ projectId: null }}
      title="Global runners"
      canManage
      emptyText="Nothing here"
      serverUrl="http://127.0.0.1:3000"
    />,
  )
}

describe('RunnersPage', () => {
  it('shows the empty state with a create button', async () => {
    mockFetch({ 'GET /api/runners': { body: [] } })
    renderPage()
    expect(await screen.findByText('No runners yet')).toBeInTheDocument()
    expect(screen.getByText('Nothing here')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'New runner' })).toHaveLength(2)
  })

  it('puts the switch back and says why when the server refuses it', async () => {
    mockFetch({
      'GET /api/runners': { body: [busy] },
      'POST /api/runners/5/active': { status: 403, body: { error: 'Forbidden' } },
    })
    renderPage()
    const user = userEvent.setup()
    const toggle = await screen.findByRole('switch', { name: 'Active: builder' })
    await user.click(toggle)
    expect(
      await screen.findByText("Can't switch the runner builder: Forbidden"),
    ).toBeInTheDocument()
    await waitFor(() => expect(toggle).toBeChecked())
  })

  it("shows the server's refusal to delete a runner with running tasks", async () => {
    const refusal = 'The runner is running tasks #41'
    mockFetch({
      'GET /api/runners': { body: [busy] },
      'DELETE /api/runners/5': { status: 409, body: { error: refusal } },
    })
    renderPage()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Delete builder' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete runner?' })
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await within(confirm).findByText(refusal)).toBeInTheDocument()
  })
})
