import type { Project } from '@flagman/contract'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ProjectSettingsForm } from './project-settings-form'

const project: Project = {
  id: 5,
  name: 'Web servers',
  type: '',
  alert: false,
  alert_chat: null,
  max_parallel_tasks: 0,
  task_retention_days: null,
  max_tasks_per_template: null,
  created: '2025-01-01T00:00:00Z',
}

function setup(canUpdate = true) {
  const server = mockFetch({
    'PUT /api/project/5': { status: 204 },
    'GET /api/project/5': { body: project },
    'GET /api/projects': { body: [project] },
  })
  renderWithProviders(<ProjectSettingsForm project={project} canUpdate={canUpdate} />)
  return server
}

const nameField = () => screen.getByRole('textbox', { name: /Project name/ })
const limitField = () => screen.getByRole('textbox', { name: 'Max number of parallel tasks' })
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }))

describe('ProjectSettingsForm', () => {
  it('shows the hint for the parallel task limit', () => {
    setup()
    expect(screen.getByText('Should be 0 or greater, 0 - unlimited')).toBeInTheDocument()
  })

  it('requires a name', async () => {
    const { requests } = setup()
    await userEvent.clear(nameField())
    await save()
    expect(await screen.findByText('Project name is required')).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0)
  })

  it('requires an integer limit', async () => {
    const { requests } = setup()
    await userEvent.clear(limitField())
    await userEvent.type(limitField(), '1.5')
    await save()
    expect(await screen.findByText('Must be an integer')).toBeInTheDocument()
    await userEvent.clear(limitField())
    await userEvent.type(limitField(), 'abc')
    expect(await screen.findByText('Must be an integer')).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0)
  })

  it('requires a limit of 0 or more', async () => {
    setup()
    await userEvent.clear(limitField())
    await userEvent.type(limitField(), '-1')
    await save()
    expect(await screen.findByText('Must be 0 or greater')).toBeInTheDocument()
  })

  it('sends the project with its id and confirms', async () => {
    const { requests } = setup()
    await userEvent.clear(nameField())
    await userEvent.type(nameField(), 'Web farm')
    await userEvent.clear(limitField())
    await userEvent.type(limitField(), '3')
    await userEvent.click(screen.getByRole('switch', { name: 'Allow alerts for this project' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Chat ID (optional)' }), '-100123')
    await save()
    expect(await screen.findByText('Project Web farm saved')).toBeInTheDocument()
    const put = requests.find((r) => r.method === 'PUT')
    expect(put?.path).toBe('/api/project/5')
    expect(put?.headers['content-type']).toBe('application/json')
    expect(put?.body).toEqual({
      id: 5,
      name: 'Web farm',
      alert: true,
      alert_chat: '-100123',
      max_parallel_tasks: 3,
    })
  })

  it('shows the server error in the form', async () => {
    mockFetch({
      'PUT /api/project/5': {
        status: 400,
        body: { error: 'Project ID in body and URL must be the same' },
      },
    })
    renderWithProviders(<ProjectSettingsForm project={project} canUpdate />)
    await save()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Project ID in body and URL must be the same',
    )
  })

  it('is read-only without the updateProject permission', async () => {
    setup(false)
    expect(nameField()).toBeDisabled()
    expect(limitField()).toBeDisabled()
    expect(screen.getByRole('switch', { name: 'Allow alerts for this project' })).toBeDisabled()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled())
  })
})
