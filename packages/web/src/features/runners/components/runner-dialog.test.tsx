import type { CreatedRunner, Runner } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RunnerDialog } from './runner-dialog'

const stored: Runner = {
  id: 5,
  project_id: null,
  name: 'builder',
  webhook: '',
  max_parallel_tasks: 3,
  active: true,
  tag: 'linux,gpu',
  touched: null,
  online: false,
  running_tasks: [],
}

describe('RunnerDialog', () => {
  it('requires a name and checks the webhook, the limit and the tags before sending', async () => {
    const { requests } = mockFetch({})
    renderWithProviders(
      <RunnerDialog
        open
        scope={{ projectId: null }}
        runner={null}
        onClose={vi.fn()}
        onCreated={vi.fn()}
      />,
    )
    const user = userEvent.setup()
    await user.type(screen.getByRole('textbox', { name: 'Webhook' }), 'ftp://example.test')
    await user.type(screen.getByRole('textbox', { name: 'Max parallel tasks' }), '-1')
    await user.type(screen.getByRole('textbox', { name: 'Tags' }), 'linux, has space')
    await user.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Enter an http or https address')).toBeInTheDocument()
    expect(screen.getByText('A whole number from 0 to 10000')).toBeInTheDocument()
    expect(
      screen.getByText('Tags may hold only letters, digits, _, . and -, separated by commas'),
    ).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('creates a project runner: an empty limit is 0 (unlimited), tags as stored', async () => {
    const created: CreatedRunner = {
      ...stored,
      id: 9,
      project_id: 3,
      name: 'edge',
      max_parallel_tasks: 0,
      tag: 'linux,arm64',
      token: 'tok',
      private_key: 'key',
    }
    const { requests } = mockFetch({
      'POST /api/project/3/runners': { status: 201, body: created },
    })
    const onCreated = vi.fn()
    renderWithProviders(
      <RunnerDialog
        open
        scope={{ projectId: 3 }}
        runner={null}
        onClose={vi.fn()}
        onCreated={onCreated}
      />,
    )
    const user = userEvent.setup()
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'edge')
    await user.type(screen.getByRole('textbox', { name: 'Tags' }), ' linux , arm64,,linux ')
    await user.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Runner edge created')).toBeInTheDocument()
    expect(onCreated).toHaveBeenCalledWith(created)
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'edge',
      webhook: '',
      max_parallel_tasks: 0,
      tag: 'linux,arm64',
      active: true,
      project_id: 3,
    })
  })

  it('edits a global runner with its stored values', async () => {
    const { requests } = mockFetch({ 'PUT /api/runners/5': { status: 204 } })
    const onClose = vi.fn()
    renderWithProviders(
      <RunnerDialog
        open
        scope={{ projectId: null }}
        runner={stored}
        onClose={onClose}
        onCreated={vi.fn()}
      />,
    )
    const user = userEvent.setup()
    expect(screen.getByRole('textbox', { name: 'Tags' })).toHaveValue('linux, gpu')
    const limit = screen.getByRole('textbox', { name: 'Max parallel tasks' })
    expect(limit).toHaveValue('3')
    await user.clear(limit)
    await user.click(screen.getByRole('switch', { name: 'Active' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Runner builder saved')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'builder',
      webhook: '',
      max_parallel_tasks: 0,
      tag: 'linux,gpu',
      active: false,
    })
  })
})
