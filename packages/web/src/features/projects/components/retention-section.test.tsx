import type { Project } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RetentionSection } from './retention-section'

const project: Project = {
  id: 5,
  name: 'Web servers',
  type: '',
  alert: true,
  alert_chat: null,
  max_parallel_tasks: 2,
  task_retention_days: 14,
  max_tasks_per_template: null,
  created: '2025-01-01T00:00:00Z',
}

function setup(info: { task_retention_days?: number; event_retention_days?: number }) {
  const server = mockFetch({
    'GET /api/info': {
      body: {
        version: '1.0.0',
        ansible: '',
        web_host: '',
        use_remote_runner: false,
        auth_methods: {},
        premium_features: { project_runners: true, terraform_backend: true },
        ...info,
      },
    },
    'PUT /api/project/5': { status: 204 },
    'GET /api/project/5': { body: project },
    'GET /api/projects': { body: [project] },
  })
  renderWithProviders(<RetentionSection project={project} canUpdate />)
  return server
}

const daysField = () => screen.getByRole('textbox', { name: 'Keep task history (days)' })
const perTemplateField = () => screen.getByRole('textbox', { name: 'Runs kept per template' })
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }))

describe('RetentionSection', () => {
  it("shows the project's settings and the server's defaults", async () => {
    setup({ task_retention_days: 90, event_retention_days: 0 })
    expect(daysField()).toHaveValue('14')
    expect(perTemplateField()).toHaveValue('')
    expect(
      await screen.findByText("Empty: the server's default (days: 90). 0: keep for ever."),
    ).toBeInTheDocument()
    expect(screen.getByText('The server keeps the activity log for ever.')).toBeInTheDocument()
  })

  it('refuses what the server would refuse, sending nothing', async () => {
    const { requests } = setup({ task_retention_days: 0, event_retention_days: 30 })
    expect(
      await screen.findByText("Empty: the server's default (kept for ever). 0: keep for ever."),
    ).toBeInTheDocument()
    await userEvent.clear(daysField())
    await userEvent.type(daysField(), '-3')
    await userEvent.type(perTemplateField(), '0')
    await save()
    expect(await screen.findByText('Must be 0 or greater')).toBeInTheDocument()
    expect(screen.getByText('Must be 1 or greater')).toBeInTheDocument()
    await userEvent.clear(daysField())
    await userEvent.type(daysField(), '2.5')
    expect(await screen.findByText('Must be an integer')).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0)
    expect(screen.getByText('The server keeps the activity log for days: 30.')).toBeInTheDocument()
  })

  it('sends only the name and the retention settings, empty as null', async () => {
    const { requests } = setup({})
    await userEvent.clear(daysField())
    await userEvent.type(perTemplateField(), '25')
    await save()
    expect(await screen.findByText('Task history settings saved')).toBeInTheDocument()
    const put = requests.find((r) => r.method === 'PUT')
    expect(put?.body).toEqual({
      id: 5,
      name: 'Web servers',
      task_retention_days: null,
      max_tasks_per_template: 25,
    })
  })
})
