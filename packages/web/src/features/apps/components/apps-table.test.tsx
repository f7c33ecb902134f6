import type { App } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { AppsTable } from './apps-table'

function app(id: string, title: string, active: boolean, priority = 0): App {
  return { id, title, active, priority, icon: '', color: '', dark_color: '', path: '', args: null }
}

describe('AppsTable', () => {
  it('offers delete only for apps that are not built in', async () => {
    const onDelete = vi.fn()
    const onToggleActive = vi.fn()
    renderWithProviders(
      <AppsTable
        apps={[app('ansible', 'Ansible', true, 1000), app('deno', 'Deno', false)]}
        onToggleActive={onToggleActive}
        onEdit={vi.fn()}
        onDelete={onDelete}
      />,
    )
    const rows = within(screen.getByRole('table', { name: 'Applications' })).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('Ansible')
    expect(
      within(rows[1] as HTMLElement).getByRole('button', { name: 'Edit Ansible' }),
    ).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Delete Ansible' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Delete Deno' }))
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 'deno' }))
    await userEvent.click(screen.getByRole('switch', { name: 'Activate Deno' }))
    expect(onToggleActive).toHaveBeenCalledWith(expect.objectContaining({ id: 'deno' }), true)
  })
})
