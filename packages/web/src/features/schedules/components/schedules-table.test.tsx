import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { type ScheduleRow, SchedulesTable } from './schedules-table'

const base: ScheduleRow = {
  id: 8,
  project_id: 3,
  template_id: 20,
  name: 'nightly',
  cron_format: '15 3 * * *',
  active: true,
  repository_id: null,
  timezone: '',
  missed_run_policy: 'skip',
  last_run: { due: '2026-03-01T03:15:00Z', fired: '2026-03-01T03:15:01Z', task_id: 41 },
  last_miss: {
    due: '2026-02-28T03:15:00Z',
    reason: 'server_down',
    count: 3,
    task_id: null,
  },
  tpl_name: 'deploy',
}

const check: ScheduleRow = {
  ...base,
  id: 9,
  name: 'on commit',
  cron_format: '*/5 * * * *',
  repository_id: 7,
  last_run: null,
  last_miss: null,
}

function renderTable(canManage: boolean) {
  mockFetch({
    'POST /api/project/3/schedules/preview': {
      body: { timezone: 'UTC', next_runs: ['2026-03-02T03:15:00Z'] },
    },
  })
  const handlers = { onToggle: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() }
  renderWithProviders(
    <SchedulesTable projectId={3} schedules={[base, check]} canManage={canManage} {...handlers} />,
  )
  const row = (name: string) =>
    screen
      .getAllByRole('row')
      .find((item) => within(item).queryByRole('cell', { name: new RegExp(`^${name}`) }))!
  return { handlers, row }
}

describe('SchedulesTable', () => {
  it('shows timing, template link, last run and last miss', async () => {
    const { row } = renderTable(true)
    const nightly = within(row('nightly'))
    expect(nightly.getByText('Every day at 03:15')).toBeInTheDocument()
    expect(nightly.getByRole('link', { name: 'deploy' })).toHaveAttribute(
      'href',
      '/project/3/templates/20',
    )
    expect(nightly.getByRole('link', { name: 'Open task #41' })).toHaveAttribute('href', '/?t=41')
    expect(nightly.getByText('Missed 3 times: server down')).toBeInTheDocument()
    expect(await nightly.findByText(/Mar 2, 2026/)).toBeInTheDocument()
  })

  it('marks commit checks and leaves them to the template form', async () => {
    const { row } = renderTable(true)
    const commit = within(row('on commit'))
    expect(commit.getByText('Commit check')).toBeInTheDocument()
    expect(commit.getByText('Every 5 minutes')).toBeInTheDocument()
    expect(commit.getByRole('switch', { name: 'Active: on commit' })).toBeDisabled()
    expect(commit.queryByRole('button', { name: 'Edit on commit' })).toBeNull()
  })

  it('switches, edits and deletes for managers', async () => {
    const { handlers } = renderTable(true)
    await userEvent.click(screen.getByRole('switch', { name: 'Active: nightly' }))
    expect(handlers.onToggle).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }), false)
    await userEvent.click(screen.getByRole('button', { name: 'Edit nightly' }))
    expect(handlers.onEdit).toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Delete nightly' }))
    expect(handlers.onDelete).toHaveBeenCalled()
  })

  it('is read-only for other members', () => {
    renderTable(false)
    expect(screen.getByRole('switch', { name: 'Active: nightly' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Edit nightly' })).toBeNull()
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull()
  })
})
