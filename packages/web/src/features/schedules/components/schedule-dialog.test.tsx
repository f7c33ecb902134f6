import type { Schedule } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { templateFixture } from '../../../testing/fixtures'
import { mockFetch, type MockResponse, type RecordedRequest } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ScheduleDialog } from './schedule-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const templates = [
  templateFixture({ id: 20, name: 'deploy' }),
  templateFixture({ id: 21, name: 'backup' }),
]

const weekly: Schedule = {
  id: 8,
  project_id: 3,
  template_id: 21,
  name: 'weekly backup',
  cron_format: '30 9 * * 1',
  active: true,
  repository_id: null,
  timezone: 'Europe/Berlin',
  missed_run_policy: 'run_once',
  last_run: null,
  last_miss: null,
}

const NEXT_RUNS = [
  '2026-03-02T08:30:00Z',
  '2026-03-09T08:30:00Z',
  '2026-03-16T08:30:00Z',
  '2026-03-23T08:30:00Z',
  '2026-03-30T07:30:00Z',
]

const BAD_CRON = 'Cron: expected exactly 5 fields, found 2: [every day]'

function routes(extra: Record<string, MockResponse | ((r: RecordedRequest) => MockResponse)> = {}) {
  return {
    'GET /api/info': { body: { version: '1.0.0', schedule_timezone: 'UTC' } },
    'POST /api/project/3/schedules/validate': (request: RecordedRequest) =>
      (request.body as { cron_format: string }).cron_format.split(' ').length === 5
        ? { status: 200 }
        : { status: 400, body: { error: BAD_CRON } },
    'POST /api/project/3/schedules/preview': (request: RecordedRequest) => ({
      body: {
        timezone: (request.body as { timezone?: string }).timezone || 'UTC',
        next_runs: NEXT_RUNS,
      },
    }),
    'GET /api/project/3/schedules/8/runs': { body: [] },
    ...extra,
  }
}

function renderDialog(schedule: Schedule | null) {
  const onClose = vi.fn()
  renderWithProviders(
    <ScheduleDialog
      open
      projectId={3}
      schedule={schedule}
      templates={templates}
      onClose={onClose}
    />,
  )
  return { onClose }
}

const field = (name: RegExp | string) => screen.getByLabelText(name, { selector: 'input' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))
const saves = (requests: RecordedRequest[], method: string) =>
  requests.filter((r) => r.method === method && /\/schedules(\/\d+)?$/.test(r.path))

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('ScheduleDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires a name and a template; a new schedule starts as raw every-minute cron', async () => {
    const { requests } = mockFetch(routes())
    renderDialog(null)
    expect(screen.getByRole('combobox', { name: /Timing/ })).toHaveTextContent(
      'Custom (cron expression)',
    )
    expect(field(/^Cron expression/)).toHaveValue('* * * * *')
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Template is required')).toBeInTheDocument()
    await userEvent.clear(field(/^Cron expression/))
    await submit('Create')
    expect(await screen.findByText('Cron expression is required')).toBeInTheDocument()
    expect(saves(requests, 'POST')).toHaveLength(0)
  })

  it('writes the expression from the timing selectors and creates the schedule', async () => {
    const { requests } = mockFetch(
      routes({
        'POST /api/project/3/schedules': {
          status: 201,
          body: { ...weekly, id: 9, name: 'nightly' },
        },
      }),
    )
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), ' nightly ')
    await choose(/^Template/, 'deploy')
    await choose(/^Timing/, 'Daily')
    await choose(/^Hour/, '03')
    await choose(/^Minute/, '15')
    expect(screen.getByTestId('schedule-expression')).toHaveTextContent('15 3 * * *')
    expect(screen.getByText(/Every day at 03:15/)).toBeInTheDocument()
    await choose(/^Timing/, 'Yearly')
    await choose(/^Month/, 'June')
    await choose(/^Day/, '2')
    expect(screen.getByTestId('schedule-expression')).toHaveTextContent('15 3 2 6 *')
    await choose(/^Timing/, 'Hourly')
    expect(screen.getByTestId('schedule-expression')).toHaveTextContent('15 * * * *')
    await choose(/^Missed runs/, 'Run once')
    await submit('Create')
    expect(await screen.findByText('Schedule nightly created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(saves(requests, 'POST')[0]?.body).toEqual({
      name: 'nightly',
      template_id: 20,
      cron_format: '15 * * * *',
      repository_id: null,
      active: true,
      project_id: 3,
      timezone: '',
      missed_run_policy: 'run_once',
    })
  })

  it("shows the server's message for an expression it cannot read", async () => {
    const { requests } = mockFetch(routes())
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'broken')
    await choose(/^Template/, 'deploy')
    await userEvent.clear(field(/^Cron expression/))
    await userEvent.type(field(/^Cron expression/), 'every day')
    expect(await screen.findByText(BAD_CRON)).toBeInTheDocument()
    await submit('Create')
    expect(await screen.findByText(BAD_CRON)).toBeInTheDocument()
    expect(saves(requests, 'POST')).toHaveLength(0)
    expect(onClose).not.toHaveBeenCalled()
    expect(field(/^Name/)).toHaveValue('broken')
  })

  it('opens an existing schedule in its timing mode and saves it', async () => {
    const { requests } = mockFetch(routes({ 'PUT /api/project/3/schedules/8': { status: 204 } }))
    renderDialog(weekly)
    expect(screen.getByRole('combobox', { name: /^Timing/ })).toHaveTextContent('Weekly')
    expect(screen.getByRole('combobox', { name: /^Weekday/ })).toHaveTextContent('Monday')
    expect(screen.getByRole('combobox', { name: /^Hour/ })).toHaveTextContent('09')
    expect(screen.getByRole('combobox', { name: /^Minute/ })).toHaveTextContent('30')
    expect(field(/^Time zone/)).toHaveValue('Europe/Berlin')
    await choose(/^Weekday/, 'Friday')
    await submit('Save')
    expect(await screen.findByText('Schedule weekly backup saved')).toBeInTheDocument()
    expect(saves(requests, 'PUT')[0]?.body).toEqual({
      id: 8,
      name: 'weekly backup',
      template_id: 21,
      cron_format: '30 9 * * 5',
      repository_id: null,
      active: true,
      project_id: 3,
      timezone: 'Europe/Berlin',
      missed_run_policy: 'run_once',
    })
  })

  it('falls back to raw for an expression the selectors cannot write', async () => {
    mockFetch(routes())
    renderDialog({ ...weekly, cron_format: '*/7 1-5 * * *' })
    expect(screen.getByRole('combobox', { name: /^Timing/ })).toHaveTextContent(
      'Custom (cron expression)',
    )
    expect(field(/^Cron expression/)).toHaveValue('*/7 1-5 * * *')
  })

  it('previews the next runs in the schedule zone and the browser zone', async () => {
    const { requests } = mockFetch(routes())
    renderDialog(weekly)
    const table = await screen.findByRole('table', { name: 'Next 5 runs' })
    expect(within(table).getByText('Schedule time (Europe/Berlin)')).toBeInTheDocument()
    expect(within(table).getAllByRole('row')).toHaveLength(NEXT_RUNS.length + 1)
    expect(requests.find((r) => r.path.endsWith('/preview'))?.body).toEqual({
      cron_format: '30 9 * * 1',
      timezone: 'Europe/Berlin',
    })
  })

  it('shows a refused save in the dialog and keeps what was typed', async () => {
    mockFetch(
      routes({
        'POST /api/project/3/schedules': { status: 400, body: { error: 'Template not found' } },
      }),
    )
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'kept')
    await choose(/^Template/, 'backup')
    await submit('Create')
    expect(await screen.findByRole('alert')).toHaveTextContent('Template not found')
    expect(onClose).not.toHaveBeenCalled()
    expect(field(/^Name/)).toHaveValue('kept')
  })
})
