import type { TaskWithTemplate } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { listedTaskFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { TasksTable } from './tasks-table'

function task(id: number, extra: Partial<TaskWithTemplate> = {}): TaskWithTemplate {
  return listedTaskFixture({ id, ...extra })
}

describe('TasksTable', () => {
  it('shows status, template, version, author and duration, linking to the log', () => {
    renderWithProviders(
      <TasksTable
        tasks={[
          task(2, { version: '1.0.2', status: 'error' }),
          task(1, { build_task: { ...task(9), version: '0.9.0' } }),
        ]}
      />,
      { route: '/project/4/history' },
    )
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers).toEqual(['Task', 'Template', 'Status', 'Version', 'User', 'Start', 'Duration'])
    const second = screen.getByRole('row', { name: /^#2 / })
    expect(second).toHaveTextContent('Deploy site')
    expect(second).toHaveTextContent('Failed')
    expect(second).toHaveTextContent('1.0.2')
    expect(second).toHaveTextContent('Ann')
    expect(second).toHaveTextContent('1m 5s')
    // A deploy shows the version of the build it deployed.
    expect(screen.getByRole('row', { name: /^#1 / })).toHaveTextContent('0.9.0')
    expect(screen.getByRole('link', { name: '#2' })).toHaveAttribute(
      'href',
      '/project/4/history?t=2',
    )
  })

  it('shows 20 tasks to a page', async () => {
    renderWithProviders(<TasksTable tasks={Array.from({ length: 45 }, (_, i) => task(45 - i))} />)
    expect(screen.getAllByRole('row')).toHaveLength(21)
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /next page/i }))
    await userEvent.click(screen.getByRole('button', { name: /next page/i }))
    expect(screen.getAllByRole('row')).toHaveLength(6)
    expect(screen.getByRole('link', { name: '#1' })).toBeInTheDocument()
  })

  it('names the integration or schedule that started a task, linked to its page', async () => {
    mockFetch({
      'GET /api/project/4/integrations': {
        body: [
          {
            id: 7,
            name: 'GitHub push',
            project_id: 4,
            template_id: 1,
            auth_method: '',
            auth_secret_id: null,
            auth_header: '',
            searchable: false,
            task_params: null,
            debounce: false,
          },
        ],
      },
      'GET /api/project/4/schedules': { body: [] },
    })
    renderWithProviders(
      <TasksTable
        tasks={[
          task(3, { project_id: 4, user_id: null, user_name: null, integration_id: 7 }),
          task(2, { project_id: 4, user_id: null, user_name: null, schedule_id: 5 }),
          task(1, { project_id: 4, user_id: null, user_name: null, integration_id: 99 }),
        ]}
      />,
      { route: '/project/4/history' },
    )
    expect(await screen.findByRole('link', { name: 'Integration GitHub push' })).toHaveAttribute(
      'href',
      '/project/4/integrations/7',
    )
    // A deleted schedule or integration is shown by its number.
    expect(await screen.findByRole('link', { name: 'Schedule #5' })).toHaveAttribute(
      'href',
      '/project/4/schedule',
    )
    expect(screen.getByRole('link', { name: 'Integration #99' })).toBeInTheDocument()
  })
})
