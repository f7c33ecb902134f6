import type { ScheduleWithTemplate } from '@flagman/contract'
import { QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { createTestQueryClient } from '../../../testing/render'
import { useSetScheduleActive } from './schedule-mutations'
import { scheduleKeys } from './schedules.query-keys'

const nightly: ScheduleWithTemplate = {
  id: 8,
  project_id: 3,
  template_id: 20,
  name: 'nightly',
  cron_format: '0 3 * * *',
  active: true,
  repository_id: null,
  timezone: '',
  missed_run_policy: 'skip',
  last_run: null,
  last_miss: null,
  tpl_name: 'deploy',
}

function setup(status: number) {
  const list = [nightly]
  const { requests } = mockFetch({
    'PUT /api/project/3/schedules/8/active': {
      status,
      body: status === 204 ? undefined : { error: 'Not allowed' },
    },
    'GET /api/project/3/schedules': { body: list },
  })
  const queryClient = createTestQueryClient()
  queryClient.setQueryData(scheduleKeys.list(3), list)
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  const { result } = renderHook(() => useSetScheduleActive(3), { wrapper })
  const shown = () => queryClient.getQueryData<ScheduleWithTemplate[]>(scheduleKeys.list(3))
  return { result, requests, shown }
}

describe('useSetScheduleActive', () => {
  it('shows the new state at once and sends it', async () => {
    const { result, requests, shown } = setup(204)
    act(() => result.current.mutate({ schedule: nightly, active: false }))
    await waitFor(() => expect(shown()?.[0]?.active).toBe(false))
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      path: '/api/project/3/schedules/8/active',
      body: { active: false },
    })
  })

  it('goes back to the old state when the server refuses', async () => {
    const { result, shown } = setup(403)
    act(() => result.current.mutate({ schedule: nightly, active: false }))
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(shown()?.[0]?.active).toBe(true)
  })
})
