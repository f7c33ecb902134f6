import type { Task } from '@flagman/contract'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { taskFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { TaskLogHost } from './task-log-host'

class FakeSocket {
  static instances: FakeSocket[] = []
  onmessage: ((event: MessageEvent) => void) | null = null
  onclose: (() => void) | null = null
  onopen: (() => void) | null = null
  constructor(public url: string) {
    FakeSocket.instances.push(this)
  }
  close() {}
  receive(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent)
  }
}

function task(status: string): Task {
  return taskFixture({
    status,
    end: null,
    commit_hash: '0123456789abcdef',
    commit_message: 'Fix it',
  })
}

/** The stored log the mocked server pages through; tests append to it as a task prints. */
type StoredLog = Array<{ task_id: number; time: string; output: string }>

function setup(status: string) {
  const log: StoredLog = [
    { task_id: 12, time: '2026-01-01T00:00:01Z', output: '\u001b[32mhello\u001b[0m' },
  ]
  const server = mockFetch({
    'GET /api/project/4/tasks/12': { body: task(status) },
    // The log is short: whichever page is asked for, it is the whole log.
    'GET /api/project/4/tasks/12/output': () => ({
      body: log.map((line, index) => ({ ...line, line: index + 1 })),
    }),
    'GET /api/project/4/tasks/12/output/count': () => ({ body: { count: log.length } }),
    'GET /api/project/4/templates/3': { body: { id: 3, name: 'Deploy site' } },
    'GET /api/project/4/users': {
      body: [{ id: 1, username: 'ann', name: 'Ann Admin', role: 'owner' }],
    },
    'POST /api/project/4/tasks/12/stop': { status: 204 },
    'POST /api/project/4/tasks/12/confirm': { status: 204 },
  })
  renderWithProviders(<TaskLogHost projectId={4} />, { route: '/project/4/history?t=12' })
  return { ...server, log }
}

/** The task prints a line: it is stored, then announced over the socket. */
function print(log: StoredLog, output: string) {
  const line = { task_id: 12, time: '2026-01-01T00:00:02Z', output }
  log.push(line)
  FakeSocket.instances.at(-1)!.receive({ type: 'log', project_id: 4, ...line })
}

describe('TaskLogDialog', () => {
  beforeEach(() => {
    FakeSocket.instances = []
    vi.stubGlobal('WebSocket', FakeSocket)
    // jsdom lays nothing out; the virtual log needs a viewport to render rows into.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(480)
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('shows the breadcrumb, status, log with colours and the commit', async () => {
    setup('running')
    expect(await screen.findByText('Deploy site')).toBeInTheDocument()
    expect(screen.getByText('#12')).toBeInTheDocument()
    expect(await screen.findByText('Running')).toBeInTheDocument()
    await screen.findByText('0123456789 Fix it')
    const hello = await screen.findByText('hello')
    expect(hello.tagName).toBe('SPAN')
    expect(hello).toHaveStyle({ color: 'rgb(0, 187, 0)' })
    expect(screen.getByText('0123456789 Fix it')).toBeInTheDocument()
    expect(await screen.findByText('Ann Admin')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download log' })).toHaveAttribute(
      'href',
      '/api/project/4/tasks/12/raw_output',
    )
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument()
  })

  it('appends live lines and merges status updates', async () => {
    const { log, requests } = setup('running')
    await screen.findByText('hello')
    const socket = FakeSocket.instances.at(-1)!
    print(log, 'second line')
    // Live lines wait in the buffer until its next flush, which reads the log's new end.
    expect(screen.queryByText('second line')).not.toBeInTheDocument()
    expect(await screen.findByText('second line')).toBeInTheDocument()
    expect(requests.filter((r) => r.path.endsWith('/output/count')).length).toBe(2)
    socket.receive({
      type: 'update',
      task_id: 12,
      project_id: 4,
      template_id: 3,
      status: 'stopping',
      start: '2026-01-01T00:00:00Z',
      end: null,
      version: null,
    })
    expect(await screen.findByText('Stopping...')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Force Stop' })).toBeInTheDocument()
  })

  it('reads the log and the task again when the socket is back after a drop', async () => {
    const { requests } = setup('running')
    await screen.findByText('hello')
    const outputReads = () =>
      requests.filter((r) => r.path === '/api/project/4/tasks/12/output').length
    const first = FakeSocket.instances.at(-1)!
    first.onopen?.()
    expect(outputReads()).toBe(1)
    first.onclose?.()
    // The client connects again 2000 ms later; lines sent meanwhile are only in storage.
    await waitFor(() => expect(FakeSocket.instances.at(-1)).not.toBe(first), { timeout: 4000 })
    FakeSocket.instances.at(-1)!.onopen?.()
    await waitFor(() => expect(outputReads()).toBe(2))
  })

  it('filters the log by a search ignoring colours and case', async () => {
    const { log } = setup('running')
    await screen.findByText('hello')
    print(log, 'second line')
    await screen.findByText('second line')
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search in log' }), 'HEL')
    expect(await screen.findByText('Matching lines: 1')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('second line')).not.toBeInTheDocument())
    expect(screen.getByText('hello')).toBeInTheDocument()
  })

  it('force-stops a stopping task', async () => {
    const { requests } = setup('stopping')
    await userEvent.click(await screen.findByRole('button', { name: 'Force Stop' }))
    await waitFor(() =>
      expect(requests.find((r) => r.path.endsWith('/stop'))?.body).toEqual({ force: true }),
    )
  })

  it('offers confirm and reject while waiting confirmation', async () => {
    const { requests } = setup('waiting_confirmation')
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }))
    expect(screen.getByRole('button', { name: 'Reject' })).toBeInTheDocument()
    await waitFor(() => expect(requests.some((r) => r.path.endsWith('/confirm'))).toBe(true))
  })

  it('removes the parameter on close', async () => {
    setup('success')
    await screen.findByText('Success')
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/history$/))
  })
})
