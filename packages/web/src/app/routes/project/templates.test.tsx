import type { Project, Template } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { templateFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { makeCan, ProjectContext } from '../../project-context'
import { TemplatesRoute } from './templates'

const SLOW_TEST_MS = 20_000

const project: Project = {
  id: 3,
  name: 'Alpha',
  type: '',
  alert: false,
  alert_chat: null,
  max_parallel_tasks: 0,
  task_retention_days: null,
  max_tasks_per_template: null,
  created: '',
}

function template(id: number, name: string, type = ''): Template {
  return templateFixture({ id, name, type, playbook: `${name}.sh` })
}

function app(id: string, priority: number) {
  return {
    id,
    active: true,
    priority,
    title: '',
    icon: '',
    color: '',
    dark_color: '',
    path: '',
    args: null,
  }
}

function mockLists(apps: unknown[] = []) {
  return mockFetch({
    'GET /api/apps': { body: apps },
    'GET /api/project/3/inventory': { body: [] },
    'GET /api/project/3/repositories': {
      body: [
        { id: 7, name: 'site', project_id: 3, git_url: '/src', git_branch: '', ssh_key_id: 1 },
      ],
    },
    'GET /api/project/3/environment': { body: [] },
    'GET /api/project/3/keys': { body: [] },
    'GET /api/project/3/views': { body: [] },
    'GET /api/project/3/templates': {
      body: [template(1, 'deploy', 'deploy'), template(2, 'build', 'build'), template(3, 'lint')],
    },
  })
}

function renderRoute(permissions = 15, route = '/project/3/templates') {
  return renderWithProviders(
    <ProjectContext.Provider
      value={{
        project,
        index: 0,
        role: 'owner',
        permissions,
        isAdmin: false,
        can: makeCan(false, permissions),
      }}
    >
      <TemplatesRoute />
    </ProjectContext.Provider>,
    { route, path: '/project/:projectId/templates' },
  )
}

describe('TemplatesRoute', { timeout: SLOW_TEST_MS }, () => {
  it('lists plain templates first, then build and deploy ones', async () => {
    mockLists()
    renderRoute()
    const table = await screen.findByRole('table', { name: 'Task Templates' })
    expect(
      within(table)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['lint', 'build', 'deploy'])
    expect(within(table).getAllByRole('button', { name: /^Run / })[0]).toBeEnabled()
  })

  it('keeps hidden columns in the browser', async () => {
    mockLists()
    const first = renderRoute()
    const table = await screen.findByRole('table', { name: 'Task Templates' })
    expect(within(table).getByRole('columnheader', { name: 'Playbook' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }))
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Playbook' }))
    expect(within(table).queryByRole('columnheader', { name: 'Playbook' })).not.toBeInTheDocument()
    first.unmount()

    renderRoute()
    const again = await screen.findByRole('table', { name: 'Task Templates' })
    expect(within(again).queryByRole('columnheader', { name: 'Playbook' })).not.toBeInTheDocument()
    expect(within(again).getByRole('columnheader', { name: 'Repository' })).toBeInTheDocument()
  })

  it('opens the view visited last', async () => {
    mockLists()
    window.localStorage.setItem('project3__lastVisitedViewId', '5')
    renderRoute()
    expect(await screen.findByTestId('location')).toHaveTextContent('/project/3/views/5/templates')
  })

  it('explains the New template menu when no app is active', async () => {
    mockLists()
    renderRoute()
    await screen.findByRole('table', { name: 'Task Templates' })
    await userEvent.click(screen.getByRole('button', { name: 'New template' }))
    expect(
      await screen.findByText(
        'No application is active. Ask an administrator to activate one to create templates.',
      ),
    ).toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Applications' })).not.toBeInTheDocument()
  })

  it('opens the new template dialog from the new_template parameter', async () => {
    mockLists([app('ansible', 1000), app('bash', 700)])
    renderRoute(15, '/project/3/templates?new_template=bash')
    expect(await screen.findByRole('dialog', { name: /^New bash template/i })).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/project\/3\/templates$/),
    )
  })

  it('falls back to the first active app for an unknown one', async () => {
    mockLists([app('bash', 700), app('ansible', 1000)])
    renderRoute(15, '/project/3/templates?new_template=')
    expect(
      await screen.findByRole('dialog', { name: /^New ansible template/i }),
    ).toBeInTheDocument()
  })

  it('searches and pages the list on the server, keeping both in the address', async () => {
    const all = Array.from({ length: 60 }, (_, i) =>
      template(i + 1, `tpl ${String(i + 1).padStart(2, '0')}`),
    )
    const { fetchMock } = mockLists()
    const pageOf = (url: URL) => {
      const search = url.searchParams.get('search') ?? ''
      const matching = all.filter((item) => item.name.includes(search))
      const offset = Number(url.searchParams.get('offset') ?? 0)
      const limit = Number(url.searchParams.get('limit') ?? matching.length)
      return matching.slice(offset, offset + limit)
    }
    const base = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost')
      if (url.pathname !== '/api/project/3/templates') return base(input, init)
      return new Response(JSON.stringify(pageOf(url)), {
        headers: { 'Content-Type': 'application/json' },
      })
    })
    const user = userEvent.setup()
    renderRoute(15, '/project/3/templates?size=25&page=2')

    expect(await screen.findByRole('link', { name: 'tpl 26' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'tpl 25' })).not.toBeInTheDocument()
    expect(screen.getByText('26–50')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Next page' }))
    expect(await screen.findByRole('link', { name: 'tpl 51' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled()
    expect(screen.getByTestId('location')).toHaveTextContent('page=3')

    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'tpl 0')
    expect(await screen.findByRole('link', { name: 'tpl 09' })).toBeInTheDocument()
    expect(screen.getByTestId('location')).toHaveTextContent('search=tpl+0')
    expect(screen.getByTestId('location')).not.toHaveTextContent('page=')

    await user.clear(screen.getByRole('searchbox', { name: 'Search templates' }))
    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'nothing')
    expect(await screen.findByText('No templates match')).toBeInTheDocument()
  })
})
