import type {
  AccessKey,
  CurrentUser,
  Environment,
  Event,
  Inventory,
  Project,
  Refs,
  Repository,
  SystemInfo,
} from '@flagman/contract'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { beforeAll, describe, expect, it } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { AppProvider } from '../../provider'
import { createAppQueryClient } from '../../query-client'
import { routes } from '../../router'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const viewer: CurrentUser = {
  id: 2,
  created: '2025-01-01T00:00:00Z',
  username: 'bob',
  name: 'Bob Roe',
  email: 'bob@example.com',
  admin: false,
  external: false,
  alert: false,
  pro: false,
  can_create_project: false,
  has_active_subscription: false,
}

const info: SystemInfo = {
  version: '2.4.1',
  ansible: '',
  web_host: '',
  use_remote_runner: false,
  auth_methods: {},
  premium_features: { project_runners: false, terraform_backend: false },
}

const alpha: Project = {
  id: 4,
  name: 'Alpha',
  type: '',
  alert: false,
  alert_chat: null,
  max_parallel_tasks: 0,
  task_retention_days: null,
  max_tasks_per_template: null,
  created: '',
}

function key(id: number, name: string, type = 'ssh'): AccessKey {
  return {
    id,
    name,
    type,
    project_id: 4,
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    string: '',
    override_secret: false,
  }
}

const keys = [key(1, 'None', 'none'), key(5, 'deploy')]
const repositories: Repository[] = [
  {
    id: 7,
    name: 'site',
    project_id: 4,
    git_url: 'git@github.com:acme/site.git',
    git_branch: 'main',
    ssh_key_id: 5,
  },
]
const inventories: Inventory[] = [
  {
    id: 3,
    name: 'production',
    project_id: 4,
    type: 'static',
    inventory: '[web]\nweb1.example.com',
    ssh_key_id: 5,
    become_key_id: null,
    repository_id: null,
    template_id: null,
  },
]
const environments: Environment[] = [
  { id: 6, name: 'staging', project_id: 4, password: null, json: '{}', env: null, secrets: null },
]
const noRefs: Refs = {
  templates: [],
  inventories: [],
  repositories: [],
  integrations: [],
  schedules: [],
}

const OWNER = { body: { role: 'owner', permissions: 15 } }
const GUEST = { body: { role: 'guest', permissions: 0 } }

function renderPage(
  url: string,
  role: MockResponse,
  answers: Record<string, MockResponse | (() => MockResponse)> = {},
) {
  const server = mockFetch({
    'GET /api/user': { body: viewer },
    'GET /api/info': { body: info },
    'GET /api/projects': { body: [alpha] },
    'GET /api/project/4/role': role,
    'GET /api/project/4/keys': { body: keys },
    'GET /api/project/4/repositories': { body: repositories },
    'GET /api/project/4/inventory': { body: inventories },
    'GET /api/project/4/environment': { body: environments },
    ...answers,
  })
  const router = createMemoryRouter(routes, { initialEntries: [url] })
  const queryClient = createAppQueryClient()
  queryClient.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false } })
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return server
}

// Pages are lazy chunks: load them once up front, so no test pays for the first import.
beforeAll(async () => {
  await Promise.all([
    import('../../layouts/app-root'),
    import('../../layouts/shell-layout'),
    import('../../layouts/project-layout'),
    import('./keys'),
    import('./repositories'),
    import('./inventory'),
    import('./environment'),
    import('./activity'),
    import('./runners'),
  ])
}, 60_000)

/** Pages are lazy chunks, which may still take a moment to render. */
const findTable = (name: string) => screen.findByRole('table', { name }, { timeout: 5000 })

describe('safe deletion', { timeout: SLOW_TEST_MS }, () => {
  it('shows who uses a key instead of deleting it', async () => {
    const { requests } = renderPage('/project/4/keys', OWNER, {
      'GET /api/project/4/keys/5/refs': {
        body: {
          ...noRefs,
          repositories: [{ id: 7, name: 'site' }],
          templates: [{ id: 2, name: 'Deploy site' }],
          integrations: [{ id: 9, name: 'GitHub push' }],
        },
      },
    })
    await userEvent.click(
      within(await findTable('Key Store')).getByRole('button', { name: 'Delete deploy' }),
    )
    const dialog = await screen.findByRole('dialog', { name: "Can't delete the key" })
    expect(dialog).toHaveTextContent(
      "The key can't be deleted because it is used by the resources below",
    )
    const repositoryList = within(dialog).getByRole('list', { name: 'Repositories' })
    expect(within(repositoryList).getByRole('link', { name: 'site' })).toHaveAttribute(
      'href',
      '/project/4/repositories',
    )
    const templateList = within(dialog).getByRole('list', { name: 'Templates' })
    expect(within(templateList).getByRole('link', { name: 'Deploy site' })).toHaveAttribute(
      'href',
      '/project/4/templates/2',
    )
    const integrationList = within(dialog).getByRole('list', { name: 'Integrations' })
    expect(within(integrationList).getByRole('link', { name: 'GitHub push' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/project\/4\/integrations\/\d+$/),
    )
    expect(within(dialog).queryByRole('list', { name: 'Schedules' })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('list', { name: 'Inventories' })).not.toBeInTheDocument()
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false)
  })

  it('links the template of a schedule that checks a repository', async () => {
    const { requests } = renderPage('/project/4/repositories', OWNER, {
      'GET /api/project/4/repositories/7/refs': {
        body: { ...noRefs, schedules: [{ id: 3, name: 'Nightly build' }] },
      },
    })
    await userEvent.click(
      within(await findTable('Repositories')).getByRole('button', { name: 'Delete site' }),
    )
    const dialog = await screen.findByRole('dialog', { name: "Can't delete the repository" })
    expect(dialog).toHaveTextContent(
      "The repository can't be deleted because it is used by the resources below",
    )
    const scheduleList = within(dialog).getByRole('list', { name: 'Schedules' })
    expect(within(scheduleList).getByRole('link', { name: 'Nightly build' })).toHaveAttribute(
      'href',
      '/project/4/templates/3',
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false)
  })

  it('falls back to the confirmation when the lookup fails, then deletes', async () => {
    const { requests } = renderPage('/project/4/keys', OWNER, {
      'GET /api/project/4/keys/5/refs': { status: 500, body: { error: 'database is locked' } },
      'DELETE /api/project/4/keys/5': { status: 204 },
    })
    await userEvent.click(
      within(await findTable('Key Store')).getByRole('button', { name: 'Delete deploy' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Delete key?' })
    expect(dialog).toHaveTextContent('deploy')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Key deploy deleted')).toBeInTheDocument()
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(1)
  })

  it('tells a refusal of the server in an error snackbar', async () => {
    renderPage('/project/4/environment', OWNER, {
      'GET /api/project/4/environment/6/refs': { body: noRefs },
      'DELETE /api/project/4/environment/6': {
        status: 400,
        body: { error: 'Environment is in use by one or more templates', inUse: true },
      },
    })
    await userEvent.click(
      within(await findTable('Environment')).getByRole('button', { name: 'Delete staging' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Delete environment?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Environment is in use by one or more templates')).toBeVisible()
  })
})

describe('read-only pages', { timeout: SLOW_TEST_MS }, () => {
  it.each([
    ['keys', 'Key Store', 'deploy', 'New key'],
    ['repositories', 'Repositories', 'site', 'New repository'],
    ['inventory', 'Inventory', 'production', 'New inventory'],
    ['environment', 'Environment', 'staging', 'New environment'],
  ])('shows /%s to a guest without changes', async (page, title, row, newLabel) => {
    renderPage(`/project/4/${page}`, GUEST)
    const table = await findTable(title)
    expect(screen.getByRole('heading', { name: title })).toBeInTheDocument()
    expect(within(table).getByText(row)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: newLabel })).not.toBeInTheDocument()
    expect(within(table).queryByRole('button')).not.toBeInTheDocument()
    expect(within(table).queryByText('Actions')).not.toBeInTheDocument()
  })

  it('offers the changes to an owner', async () => {
    renderPage('/project/4/repositories', OWNER)
    const table = await findTable('Repositories')
    expect(within(table).getByText('deploy')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'New repository' })).toBeInTheDocument()
    expect(within(table).getByRole('button', { name: 'Edit site' })).toBeInTheDocument()
    expect(within(table).getByRole('button', { name: 'Delete site' })).toBeInTheDocument()
  })

  it('lists the resource pages in the drawer', async () => {
    renderPage('/project/4/keys', GUEST)
    await findTable('Key Store')
    const nav = screen.getByRole('navigation', { name: 'Project pages' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Dashboard',
      'Task Templates',
      'Schedule',
      'Inventory',
      'Environment',
      'Key Store',
      'Repositories',
      'Integrations',
      'Runners',
      'Team',
      'Activity',
      'Install',
      'News',
    ])
  })
})

describe('pages', { timeout: SLOW_TEST_MS }, () => {
  it('shows the PRO banner instead of project runners the server does not offer', async () => {
    renderPage('/project/4/runners', OWNER)
    expect(
      await screen.findByText('Project runners are available only in the PRO version.'),
    ).toBeVisible()
    expect(screen.queryByRole('button', { name: 'New runner' })).not.toBeInTheDocument()
  })

  it('lists project runners read-only for a guest', async () => {
    renderPage('/project/4/runners', GUEST, {
      'GET /api/info': {
        body: { ...info, premium_features: { project_runners: true, terraform_backend: false } },
      },
      'GET /api/project/4/runners': {
        body: [
          {
            id: 3,
            project_id: 4,
            name: 'edge',
            webhook: '',
            max_parallel_tasks: 0,
            active: true,
            tag: 'arm64',
            touched: null,
            online: false,
            running_tasks: [],
          },
        ],
      },
    })
    const table = await findTable('Runners')
    expect(within(table).getByText('edge')).toBeVisible()
    expect(within(table).getByRole('switch', { name: 'Active: edge' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'New runner' })).not.toBeInTheDocument()
    // Only administrators get the link to the global runners.
    expect(screen.queryByRole('link', { name: 'Global runners' })).not.toBeInTheDocument()
  })

  it('shows the empty state', async () => {
    renderPage('/project/4/environment', OWNER, { 'GET /api/project/4/environment': { body: [] } })
    expect(await screen.findByText('No environments yet', {}, { timeout: 5000 })).toBeVisible()
  })

  it('lists the activity, newest first', async () => {
    const event = (created: string, description: string): Event => ({
      user_id: 2,
      project_id: 4,
      integration_id: null,
      object_id: 1,
      object_type: 'key',
      description,
      created,
      object_name: '',
      project_name: 'Alpha',
      username: 'bob',
    })
    renderPage('/project/4/activity', GUEST, {
      'GET /api/project/4/events': {
        body: [
          event('2025-03-01T10:00:00Z', 'Access Key deploy created'),
          event('2025-03-02T10:00:00Z', 'Repository site created'),
        ],
      },
    })
    const table = await findTable('Activity')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      'Repository site created',
      // Reworded from its parts by the console, like every created/updated/deleted entry.
      'Key deploy created',
    ])
    expect(within(rows[0] as HTMLElement).getByText('bob')).toBeInTheDocument()
  })
})
