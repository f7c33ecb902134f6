import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { TaskStatsChart } from './task-stats-chart'

// The canvas is not drawn in the DOM test environment; the chart's inputs are checked instead.
vi.mock('./task-stats-line', () => ({
  default: ({ series, label }: { series: { days: string[] }; label: string }) => (
    <div role="img" aria-label={label} data-days={series.days.length} />
  ),
}))

const SLOW_TEST_MS = 20_000

describe('TaskStatsChart', { timeout: SLOW_TEST_MS }, () => {
  it('asks for the chosen range and user and draws zero-padded days', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const { fetchMock } = mockFetch({
      'GET /api/project/4/templates/3/stats': {
        body: [{ date: today, count_by_status: { success: 2, error: 1 }, avg_duration: 4 }],
      },
      'GET /api/project/4/users': {
        body: [{ id: 7, username: 'ann', name: 'Ann', role: 'owner' }],
      },
    })
    renderWithProviders(<TaskStatsChart projectId={4} templateId={3} />)
    const chart = await screen.findByRole('img', {
      name: 'Success: 2, failed: 1, stopped: 0',
    })
    expect(chart).toHaveAttribute('data-days', '7')

    await userEvent.click(screen.getByRole('combobox', { name: 'Period' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Past year' }))
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /^Success/ })).toHaveAttribute('data-days', '365'),
    )
    await userEvent.click(screen.getByRole('combobox', { name: 'User' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Ann' }))
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([input]) =>
          String(input instanceof Request ? input.url : input).includes('user_id=7'),
        ),
      ).toBe(true),
    )
  })
})
