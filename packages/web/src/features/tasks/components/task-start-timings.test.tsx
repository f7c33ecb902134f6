import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { TaskStartTimings } from './task-start-timings'

describe('TaskStartTimings', () => {
  it('shows the total start time and each phase in order', () => {
    renderWithProviders(
      <TaskStartTimings
        timings={{
          queued_ms: 2,
          building_job_ms: 1,
          writing_files_ms: 0,
          preparing_repository_ms: 1250,
          spawning_ms: 3,
          total_ms: 1260,
        }}
      />,
    )
    const box = screen.getByTestId('task-start-timings')
    expect(box).toHaveTextContent('Start time')
    expect(screen.getByText('1,260 ms')).toBeInTheDocument()
    expect(box).toHaveTextContent(
      'Queued 2 ms · Building the job 1 ms · Writing files 0 ms · Preparing the repository 1,250 ms · Starting the process 3 ms',
    )
    expect(box).not.toHaveTextContent('On the runner')
  })

  it("shows a runner's part and leaves out the phases it did not report", () => {
    renderWithProviders(
      <TaskStartTimings timings={{ queued_ms: 5, runner_ms: 40, total_ms: 45 }} />,
    )
    expect(screen.getByTestId('task-start-timings')).toHaveTextContent(
      'Queued 5 ms · On the runner 40 ms',
    )
  })

  it('shows nothing before the task has started', () => {
    renderWithProviders(<TaskStartTimings timings={null} />)
    expect(screen.queryByTestId('task-start-timings')).toBeNull()
  })
})
