import type { Template } from '@flagman/contract'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { templateFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { NewTaskDialog } from './new-task-dialog'

const SLOW_TEST_MS = 20_000

function template(overrides: Partial<Template> = {}): Template {
  return templateFixture({
    id: 3,
    project_id: 4,
    name: 'Greet',
    playbook: 'greet.sh',
    arguments: '["--fast"]',
    allow_override_args_in_task: true,
    repository_id: 1,
    survey_vars: [
      { name: 'who', title: 'Who', description: '', type: '', required: true, values: [] },
      { name: 'count', title: 'Count', description: '', type: 'int', required: false, values: [] },
      {
        name: 'token',
        title: 'Token',
        description: '',
        type: 'secret',
        required: false,
        values: [],
      },
    ],
    ...overrides,
  })
}

function setup(tpl: Template) {
  const server = mockFetch({
    'GET /api/project/4/templates/3': { body: tpl },
    'POST /api/project/4/tasks': { status: 201, body: { id: 99 } },
  })
  const onCreated = vi.fn()
  renderWithProviders(
    <NewTaskDialog projectId={4} templateId={3} onClose={vi.fn()} onCreated={onCreated} />,
  )
  return { ...server, onCreated }
}

describe('NewTaskDialog', { timeout: SLOW_TEST_MS }, () => {
  it('validates survey variables and CLI args before running', async () => {
    const { requests, onCreated } = setup(template())
    const who = await screen.findByLabelText(/^Who/)
    expect(screen.getByLabelText(/^Token/)).toHaveAttribute('type', 'password')
    await userEvent.type(screen.getByLabelText(/^Count/), 'x1')
    await userEvent.clear(screen.getByLabelText(/^Argument 1/))
    await userEvent.click(screen.getByRole('button', { name: 'Run' }))
    expect(await screen.findByText('Who is required')).toBeInTheDocument()
    expect(screen.getByText('must be integer')).toBeInTheDocument()
    expect(screen.getByText('Argument is required')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)

    await userEvent.type(who, 'world')
    await userEvent.clear(screen.getByLabelText(/^Count/))
    await userEvent.type(screen.getByLabelText(/^Count/), '3')
    await userEvent.type(screen.getByLabelText(/^Token/), 's3cret')
    await userEvent.type(screen.getByLabelText(/^Argument 1/), '  --slow  ')
    await userEvent.click(screen.getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(onCreated).toHaveBeenCalled())
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      template_id: 3,
      environment: JSON.stringify({ who: 'world', count: 3 }),
      secret: JSON.stringify({ token: 's3cret' }),
      arguments: JSON.stringify(['--slow']),
    })
  })

  it('hides CLI args when the template does not allow them', async () => {
    setup(template({ allow_override_args_in_task: false, survey_vars: [] }))
    await screen.findByRole('button', { name: 'Run' })
    expect(screen.queryByText('CLI args')).not.toBeInTheDocument()
  })

  it('sends ansible limits and tags, and a branch where the template allows it', async () => {
    const { requests, onCreated } = setup(
      template({
        app: 'ansible',
        playbook: 'site.yml',
        allow_override_args_in_task: false,
        survey_vars: [],
        git_branch: 'main',
        task_params: { allow_override_branch_in_task: true, tags: ['web'] },
      }),
    )
    expect(await screen.findByLabelText('Tags')).toHaveValue('web')
    await userEvent.type(screen.getByLabelText('Limit'), ' db1 , db2,')
    await userEvent.type(screen.getByLabelText('Skip tags'), 'slow')
    await userEvent.type(screen.getByLabelText('Git branch'), ' feature/x ')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Diff' }))
    await userEvent.click(screen.getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(onCreated).toHaveBeenCalled())
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      template_id: 3,
      git_branch: 'feature/x',
      params: {
        debug: false,
        dry_run: false,
        diff: true,
        limit: ['db1', 'db2'],
        tags: ['web'],
        skip_tags: ['slow'],
      },
    })
  })

  it('offers no branch field unless the template allows it', async () => {
    setup(template({ allow_override_args_in_task: false, survey_vars: [] }))
    await screen.findByRole('button', { name: 'Run' })
    expect(screen.queryByLabelText('Git branch')).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Limit')).not.toBeInTheDocument()
  })
})
