import type { Project } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { ProjectPicker } from './project-picker'

function project(id: number, name: string, type = ''): Project {
  return {
    id,
    name,
    type,
    alert: false,
    alert_chat: null,
    max_parallel_tasks: 0,
    task_retention_days: null,
    max_tasks_per_template: null,
    created: '',
  }
}

const projects = [
  project(1, 'Alpha Beta'),
  project(2, 'Gamma'),
  project(3, 'Delta Echo Foxtrot'),
  project(4, 'Hotel'),
  project(5, 'India Juliet'),
]

describe('ProjectPicker', () => {
  it('shows the current project with its badge and the role', () => {
    renderWithProviders(
      <ProjectPicker
        projects={projects}
        currentProjectId={3}
        role="task_runner"
        isAdmin={false}
        canCreateProject={false}
        onSelect={vi.fn()}
        onNewProject={vi.fn()}
        onRestoreProject={vi.fn()}
      />,
    )
    const button = screen.getByRole('button', { name: /Current project: Delta Echo Foxtrot/ })
    expect(within(button).getByText('DE')).toHaveAttribute('data-color', 'orange')
    expect(within(button).getByText('Task runner')).toBeInTheDocument()
  })

  it('lists the projects with badge colours by position, and offers a new project', async () => {
    const onSelect = vi.fn()
    const onNewProject = vi.fn()
    const onRestoreProject = vi.fn()
    renderWithProviders(
      <ProjectPicker
        projects={projects}
        currentProjectId={1}
        role="owner"
        isAdmin={false}
        canCreateProject
        onSelect={onSelect}
        onNewProject={onNewProject}
        onRestoreProject={onRestoreProject}
      />,
    )
    await userEvent.click(screen.getByRole('button', { name: /Current project: Alpha Beta/ }))
    const items = screen.getAllByRole('menuitem')
    const colours = items.slice(0, 5).map((item) => item.querySelector('[data-color]'))
    expect(colours.map((badge) => badge?.getAttribute('data-color'))).toEqual([
      'red',
      'blue',
      'orange',
      'green',
      'red',
    ])
    expect(colours.map((badge) => badge?.textContent)).toEqual(['AB', 'GA', 'DE', 'HO', 'IJ'])

    await userEvent.click(screen.getByRole('menuitem', { name: /Hotel/ }))
    expect(onSelect).toHaveBeenCalledWith(projects[3])

    await userEvent.click(screen.getByRole('button', { name: /Current project/ }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'New project' }))
    expect(onNewProject).toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: /Current project/ }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Restore project' }))
    expect(onRestoreProject).toHaveBeenCalled()
  })

  it('hides the new-project entry from users who may not create projects', async () => {
    renderWithProviders(
      <ProjectPicker
        projects={projects}
        currentProjectId={1}
        role=""
        isAdmin
        canCreateProject={false}
        onSelect={vi.fn()}
        onNewProject={vi.fn()}
        onRestoreProject={vi.fn()}
      />,
    )
    expect(screen.getByText('Administrator')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Current project/ }))
    expect(screen.queryByRole('menuitem', { name: 'New project' })).not.toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Restore project' })).not.toBeInTheDocument()
  })
})
