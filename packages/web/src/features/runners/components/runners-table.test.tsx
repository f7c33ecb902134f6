import type { Runner } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { RunnersTable } from './runners-table'

const busy: Runner = {
  id: 5,
  project_id: 3,
  name: 'builder',
  webhook: 'https://hooks.example.test/runner',
  max_parallel_tasks: 0,
  active: true,
  tag: 'linux,gpu',
  touched: new Date(Date.now() - 5_000).toISOString(),
  online: true,
  running_tasks: [{ task_id: 41, project_id: 3, status: 'running' }],
}

const lost: Runner = {
  ...busy,
  id: 6,
  name: 'old box',
  webhook: '',
  max_parallel_tasks: 2,
  tag: '',
  touched: new Date(Date.now() - 3 * 3600_000).toISOString(),
  online: false,
  running_tasks: [],
}

const fresh: Runner = { ...lost, id: 7, name: 'new box', touched: null, active: false }

function renderTable(canManage: boolean) {
  const handlers = { onToggle: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() }
  renderWithProviders(
    <RunnersTable runners={[busy, lost, fresh]} canManage={canManage} {...handlers} />,
  )
  const row = (name: string) =>
    screen.getAllByRole('row').find((item) => within(item).queryByText(name) !== null)!
  return { handlers, row }
}

describe('RunnersTable', () => {
  it('shows tags, limits, webhook, status with last seen and links to running tasks', () => {
    const { row } = renderTable(true)
    const first = within(row('builder'))
    expect(first.getByText('linux')).toBeInTheDocument()
    expect(first.getByText('gpu')).toBeInTheDocument()
    expect(first.getByText('Unlimited')).toBeInTheDocument()
    expect(first.getByText('https://hooks.example.test/runner')).toBeInTheDocument()
    expect(first.getByText('Online')).toBeInTheDocument()
    expect(first.getByText(/^Last seen .*seconds? ago|^Last seen now/)).toBeInTheDocument()
    expect(first.getByRole('link', { name: 'Open task #41' })).toHaveAttribute(
      'href',
      '/project/3/history?t=41',
    )

    const second = within(row('old box'))
    expect(second.getByText('Offline')).toBeInTheDocument()
    expect(second.getByText('Last seen 3 hours ago')).toBeInTheDocument()
    expect(second.getByText('2')).toBeInTheDocument()

    const third = within(row('new box'))
    expect(third.getByText('Never connected')).toBeInTheDocument()
    expect(third.getByRole('switch', { name: 'Active: new box' })).not.toBeChecked()
  })

  it('switches, edits and deletes for managers', async () => {
    const { handlers } = renderTable(true)
    const user = userEvent.setup()
    await user.click(screen.getByRole('switch', { name: 'Active: builder' }))
    expect(handlers.onToggle).toHaveBeenCalledWith(busy, false)
    await user.click(screen.getByRole('button', { name: 'Edit old box' }))
    expect(handlers.onEdit).toHaveBeenCalledWith(lost)
    await user.click(screen.getByRole('button', { name: 'Delete new box' }))
    expect(handlers.onDelete).toHaveBeenCalledWith(fresh)
  })

  it('is read-only for other members', () => {
    renderTable(false)
    expect(screen.getByRole('switch', { name: 'Active: builder' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Edit builder' })).not.toBeInTheDocument()
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument()
  })
})
