import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { highlightParts } from '../log-search-highlight'
import { TaskLogSearch } from './task-log-search'
import { TemplateLogSearch } from './template-log-search'

const PATH = '/api/project/1/tasks/7/output/search'

describe('highlightParts', () => {
  it('cuts a line into its matches, any case, without colour codes', () => {
    expect(highlightParts('\u001b[31mError\u001b[0m: an error', 'ERROR')).toEqual([
      { text: 'Error', match: true },
      { text: ': an ', match: false },
      { text: 'error', match: true },
    ])
    expect(highlightParts('100% done', '%')).toEqual([
      { text: '100', match: false },
      { text: '%', match: true },
      { text: ' done', match: false },
    ])
    expect(highlightParts('plain', '')).toEqual([{ text: 'plain', match: false }])
  })
})

describe('TaskLogSearch', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('asks the server, marks the matches and jumps to a line', async () => {
    const { fetchMock } = mockFetch({
      [`GET ${PATH}`]: {
        body: {
          task_id: 7,
          truncated: true,
          timed_out: false,
          matches: [
            { id: 70, line: 12, time: '2026-01-01T00:00:00Z', output: 'first "needle" here' },
            { id: 90, line: 4000, time: '2026-01-01T00:00:01Z', output: 'Needle again' },
          ],
        },
      },
    })
    const onJump = vi.fn()
    renderWithProviders(<TaskLogSearch projectId={1} taskId={7} onJump={onJump} />)
    const field = screen.getByRole('searchbox', { name: 'Search the whole log' })
    fireEvent.change(field, { target: { value: '"needle"' } })
    fireEvent.submit(screen.getByRole('search'))

    const results = await screen.findByRole('list', { name: 'Matching lines' })
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost')
    expect(url.pathname).toBe(PATH)
    expect(url.searchParams.get('q')).toBe('"needle"')
    const items = within(results).getAllByRole('button')
    expect(items).toHaveLength(2)
    expect(items[0]!.querySelector('mark')?.textContent).toBe('"needle"')
    expect(screen.getByText('First 2 matching lines shown')).toBeInTheDocument()

    fireEvent.click(items[1]!)
    expect(onJump).toHaveBeenCalledWith(4000)
  })

  it('does not ask for a blank text', async () => {
    const { fetchMock } = mockFetch({})
    renderWithProviders(<TaskLogSearch projectId={1} taskId={7} onJump={() => {}} />)
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '   ' } })
    fireEvent.submit(screen.getByRole('search'))
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled())
  })
})

describe('TemplateLogSearch', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("searches the template's runs over the chosen days and links each match to its task", async () => {
    const { fetchMock } = mockFetch({
      'GET /api/project/1/output/search': {
        body: {
          truncated: false,
          timed_out: false,
          matches: [
            {
              id: 5,
              line: 3,
              time: '2026-01-01T00:00:00Z',
              output: 'disk full',
              task_id: 42,
              template_id: 9,
              template_name: 'deploy',
              task_status: 'error',
              task_created: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
    })
    renderWithProviders(<TemplateLogSearch projectId={1} templateId={9} />)
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'FULL' } })
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } })
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } })
    fireEvent.submit(screen.getByRole('search'))

    const link = await screen.findByRole('link', { name: 'Task #42' })
    expect(link).toHaveAttribute('href', '/?t=42')
    expect(screen.getByText('full').tagName).toBe('MARK')
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'FULL',
      template_id: '9',
      from: '2026-01-01',
      to: '2026-02-01',
    })
  })
})
