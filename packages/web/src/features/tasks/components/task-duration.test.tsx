import { act, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { TaskDuration } from './task-duration'

describe('TaskDuration', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    vi.setSystemTime(new Date('2024-01-01T00:00:10Z'))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('counts up every second while the task runs', () => {
    renderWithProviders(<TaskDuration start="2024-01-01T00:00:00Z" end={null} />)
    expect(screen.getByText('10s')).toHaveAttribute('data-live', 'true')
    act(() => {
      vi.advanceTimersByTime(1000)
    })
    expect(screen.getByText('11s')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(55_000)
    })
    expect(screen.getByText('1m 6s')).toBeInTheDocument()
  })

  it('stands still once the task has ended, and ticks no clock', () => {
    renderWithProviders(<TaskDuration start="2024-01-01T00:00:00Z" end="2024-01-01T00:00:03Z" />)
    expect(screen.getByText('3s')).not.toHaveAttribute('data-live')
    expect(vi.getTimerCount()).toBe(0)
    act(() => {
      vi.advanceTimersByTime(5000)
    })
    expect(screen.getByText('3s')).toBeInTheDocument()
  })

  it('shows a dash before the task starts', () => {
    const { container } = renderWithProviders(<TaskDuration start={null} end={null} />)
    expect(container).toHaveTextContent('—')
    expect(vi.getTimerCount()).toBe(0)
  })
})
