import type { ActiveTask } from '@flagman/contract'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ACTIVE_TASKS_REFRESH_MS, useActiveTasks } from '../api/tasks'
import { ActiveTasksTable } from './active-tasks-table'

function active(taskId: number, extra: Partial<ActiveTask> = {}): ActiveTask {
  return { task_id: taskId, project_id: 4, status: 'running', location: 'local', ...extra }
}

describe('ActiveTasksTable', () => {
  it('shows task and project links, status, location and a stop action', async () => {
    const onStop = vi.fn()
    renderWithProviders(
      <ActiveTasksTable
        tasks={[
          active(1, {
            status: 'waiting',
            location: 'queue',
            queue_reason: 'No active runner has the tag gpu',
          }),
          active(2, { location: 'runner', runner_id: 3 }),
          active(3),
        ]}
        projectName={(id) => `Project ${id}`}
        onStop={onStop}
        stopping={false}
      />,
    )
    const row = (id: number) => screen.getByRole('row', { name: new RegExp(`^#${id} `) })
    expect(row(1)).toHaveTextContent('Queue')
    expect(row(1)).toHaveTextContent('Waiting')
    expect(row(1)).toHaveTextContent('No active runner has the tag gpu')
    expect(row(2)).toHaveTextContent('Runner #3')
    expect(row(3)).toHaveTextContent('Local Running')
    expect(screen.getByRole('link', { name: '#2' })).toHaveAttribute(
      'href',
      '/project/4/history?t=2',
    )
    expect(screen.getAllByRole('link', { name: 'Project 4' })[0]).toHaveAttribute(
      'href',
      '/project/4/history',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Stop task #2' }))
    expect(onStop).toHaveBeenCalledWith(expect.objectContaining({ task_id: 2 }))
  })

  it('shows the template (linked), who started the task and how long it has run', async () => {
    const start = new Date(Date.now() - 65_000).toISOString()
    mockFetch({
      'GET /api/project/4/tasks/7': {
        body: { id: 7, template_id: 12, project_id: 4, status: 'running', start, end: null },
      },
      'GET /api/project/4/templates/12': { body: { id: 12, project_id: 4, name: 'Deploy site' } },
    })
    renderWithProviders(
      <ActiveTasksTable
        tasks={[active(7, { username: 'alice' })]}
        projectName={() => 'P'}
        onStop={() => {}}
        stopping={false}
      />,
    )
    const link = await screen.findByRole('link', { name: 'Deploy site' })
    expect(link).toHaveAttribute('href', '/project/4/templates/12')
    const row = screen.getByRole('row', { name: /^#7 / })
    expect(row).toHaveTextContent('alice')
    expect(row).toHaveTextContent(/1m [5-9]s/)
    expect(screen.getByRole('columnheader', { name: 'Template' })).toBeInTheDocument()
  })

  it('shows 20 tasks to a page', async () => {
    const tasks = Array.from({ length: 25 }, (_, index) => active(index + 1))
    renderWithProviders(
      <ActiveTasksTable tasks={tasks} projectName={() => 'P'} onStop={() => {}} stopping={false} />,
    )
    expect(screen.getAllByRole('button', { name: /^Stop task/ })).toHaveLength(20)
    expect(screen.getByText('1–20 of 25')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /next page/i }))
    expect(screen.getAllByRole('button', { name: /^Stop task/ })).toHaveLength(5)
  })
})

function ActiveCount() {
  const tasks = useActiveTasks()
  return <output>{tasks.data ? `tasks: ${tasks.data.length}` : 'loading'}</output>
}

describe('useActiveTasks', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('reads the list again every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let answers = 0
    mockFetch({
      'GET /api/tasks': () => {
        answers += 1
        return { body: Array.from({ length: answers }, (_, index) => active(index + 1)) }
      },
    })
    renderWithProviders(<ActiveCount />)
    expect(await screen.findByText('tasks: 1')).toBeInTheDocument()
    expect(ACTIVE_TASKS_REFRESH_MS).toBe(10_000)
    await act(() => vi.advanceTimersByTimeAsync(ACTIVE_TASKS_REFRESH_MS - 1_000))
    expect(answers).toBe(1)
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    await waitFor(() => expect(screen.getByText('tasks: 2')).toBeInTheDocument())
  })
})
