import type { CurrentUser, Project, SystemInfo } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { type MockResponse, mockFetch } from '../testing/mock-fetch'
import { AppProvider } from './provider'
import { createAppQueryClient } from './query-client'
import { routes } from './router'

const admin: CurrentUser = {
  id: 1,
  created: '2025-01-01T00:00:00Z',
  username: 'admin',
  name: 'Ada Admin',
  email: 'admin@example.com',
  admin: true,
  external: false,
  alert: false,
  pro: false,
  can_create_project: true,
  has_active_subscription: false,
}

const info: SystemInfo = {
  version: '2.4.1-abc123-1700000000',
  ansible: '',
  web_host: '',
  use_remote_runner: false,
  auth_methods: {},
  premium_features: { project_runners: false, terraform_backend: false },
}

function project(id: number, name: string): Project {
  return {
    id,
    name,
    type: '',
    alert: false,
    alert_chat: null,
    max_parallel_tasks: 0,
    task_retention_days: null,
    max_tasks_per_template: null,
    created: '',
  }
}

function renderApp(url: string, answers: Record<string, MockResponse | (() => MockResponse)>) {
  const server = mockFetch({
    'GET /api/user': { body: admin },
    'GET /api/info': { body: info },
    'GET /api/auth/login': {
      body: { oidc_providers: [], login_with_password: true, auth_methods: {} },
    },
    'GET /api/project/4/tasks': { body: [] },
    'GET /api/project/8/tasks': { body: [] },
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
  return { router, ...server }
}

const pathOf = (router: ReturnType<typeof createMemoryRouter>) =>
  router.state.location.pathname + router.state.location.search

describe('start-up', () => {
  it('goes to the sign-in page on 401', async () => {
    const { router } = renderApp('/project/1/history', { 'GET /api/user': { status: 401 } })
    expect(await screen.findByRole('heading', { name: 'Sign in to Flagman' })).toBeInTheDocument()
    expect(pathOf(router)).toBe('/auth/login')
  })

  it('keeps the sign-in form and says why when the password is wrong', async () => {
    renderApp('/', {
      'GET /api/user': { status: 401 },
      'POST /api/auth/login': { status: 401, body: { error: 'Incorrect login or password' } },
    })
    const username = await screen.findByLabelText(/Username or email/)
    await userEvent.type(username, 'admin')
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect login or password')
    expect(screen.getByLabelText(/Username or email/)).toHaveValue('admin')
  })

  it('shows the error state with refresh and relogin on other failures', async () => {
    renderApp('/', { 'GET /api/projects': { status: 500, body: { error: 'database is locked' } } })
    expect(await screen.findByText('database is locked')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Refresh page' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Relogin' })).toBeInTheDocument()
  })

  it('goes to the new-project page without projects', async () => {
    const { router } = renderApp('/', { 'GET /api/projects': { body: [] } })
    expect(await screen.findByRole('heading', { name: 'New project' })).toBeInTheDocument()
    expect(pathOf(router)).toBe('/project/new')
  })

  it('goes to the subscription page without projects when asked for premium', async () => {
    const { router } = renderApp('/?new_project=premium', { 'GET /api/projects': { body: [] } })
    expect(await screen.findByRole('heading', { name: 'New subscription' })).toBeInTheDocument()
    expect(pathOf(router)).toBe('/project/premium')
  })

  it('opens the project stored locally, else the first one', async () => {
    window.localStorage.setItem('projectId', '8')
    const { router } = renderApp('/', {
      'GET /api/projects': { body: [project(4, 'Alpha'), project(8, 'Bravo')] },
      'GET /api/project/8/role': { body: { role: 'owner', permissions: 15 } },
    })
    await waitFor(() => expect(pathOf(router)).toBe('/project/8/history'))
    expect(await screen.findByRole('heading', { name: 'Bravo' })).toBeInTheDocument()
    expect(await screen.findByText('No tasks yet')).toBeInTheDocument()
  })

  it('prefers the project in the URL and remembers it', async () => {
    window.localStorage.setItem('projectId', '8')
    renderApp('/project/4/history', {
      'GET /api/projects': { body: [project(4, 'Alpha'), project(8, 'Bravo')] },
      'GET /api/project/4/role': { body: { role: 'guest', permissions: 0 } },
    })
    expect(await screen.findByRole('heading', { name: 'Alpha' })).toBeInTheDocument()
    expect(screen.getByText('Guest')).toBeInTheDocument()
    await waitFor(() => expect(window.localStorage.getItem('projectId')).toBe('4'))
  })
})

describe('shell', () => {
  const projects = [project(4, 'Alpha'), project(8, 'Bravo')]

  it('shows the version and admin entries in the user menu', async () => {
    renderApp('/project/4/history', {
      'GET /api/projects': { body: projects },
      'GET /api/project/4/role': { body: { role: '', permissions: 0 } },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu of Ada Admin' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByText('Version 2.4.1')).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Users' })).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Edit account' })).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument()
    // No runners in use: their entry stays out of the menu.
    expect(within(menu).queryByRole('menuitem', { name: 'Runners' })).not.toBeInTheDocument()
  })

  it('offers the runners in the user menu once the server uses remote runners', async () => {
    const { router } = renderApp('/project/4/history', {
      'GET /api/info': { body: { ...info, use_remote_runner: true } },
      'GET /api/projects': { body: projects },
      'GET /api/project/4/role': { body: { role: '', permissions: 0 } },
      'GET /api/runners': { body: [] },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu of Ada Admin' }))
    const menu = await screen.findByRole('menu')
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent)
    expect(items.slice(0, 3)).toEqual(['Users', 'Runners', 'Applications'])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Runners' }))
    await waitFor(() => expect(pathOf(router)).toBe('/runners'))
    expect(await screen.findByRole('heading', { name: 'Global runners' })).toBeInTheDocument()
  })

  it('opens the new-project dialog from the query parameter and removes it on close', async () => {
    const { router } = renderApp('/project/4/history?new_project=', {
      'GET /api/projects': { body: projects },
      'GET /api/project/4/role': { body: { role: 'owner', permissions: 15 } },
    })
    const dialog = await screen.findByRole('dialog', { name: 'New project' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(pathOf(router)).toBe('/project/4/history'))
  })

  it('selects a project created in the dialog', async () => {
    const { router, requests } = renderApp('/project/4/history?new_project=', {
      'GET /api/projects': { body: projects },
      'GET /api/project/4/role': { body: { role: 'owner', permissions: 15 } },
      'GET /api/project/12/role': { body: { role: 'owner', permissions: 15 } },
      'POST /api/projects': { status: 201, body: project(12, 'Charlie') },
    })
    const dialog = await screen.findByRole('dialog', { name: 'New project' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Project name/ }), 'Charlie')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(pathOf(router)).toBe('/project/12'))
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({ name: 'Charlie' })
    expect(window.localStorage.getItem('projectId')).toBe('12')
  })

  it('selects the first remaining project after deleting the current one', async () => {
    const { router } = renderApp('/project/8/settings', {
      'GET /api/projects': { body: projects },
      'GET /api/project/8/role': { body: { role: 'owner', permissions: 15 } },
      'GET /api/project/4/role': { body: { role: 'owner', permissions: 15 } },
      'DELETE /api/project/8': { status: 204 },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Delete project' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete project?' })
    expect(dialog).toHaveTextContent('Bravo')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/project\/4/))
    expect(await screen.findByText('Project Bravo deleted')).toBeInTheDocument()
  })
})
