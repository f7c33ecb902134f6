import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { InventoryDialog } from './inventory-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const keys = [
  { id: 1, name: 'None', type: 'none' },
  { id: 2, name: 'deploy', type: 'ssh' },
  { id: 3, name: 'sudo', type: 'login_password' },
]
const repositories = [{ id: 7, name: 'site' }]

function renderDialog() {
  const onClose = vi.fn()
  renderWithProviders(
    <InventoryDialog
      open
      projectId={3}
      inventory={null}
      keys={keys}
      repositories={repositories}
      onClose={onClose}
    />,
  )
  return { onClose }
}

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('InventoryDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires a name and user credentials, and offers only logins for sudo', async () => {
    const { requests } = mockFetch({})
    renderDialog()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('User credentials are required')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('combobox', { name: /Sudo credentials/ }))
    const options = within(await screen.findByRole('listbox')).getAllByRole('option')
    expect(options.map((option) => option.textContent)).toEqual(['None', 'sudo'])
    expect(requests).toHaveLength(0)
  })

  it('checks the path of a file inventory and sends it trimmed with its repository', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/inventory': ({ body }) => ({
        status: 201,
        body: { ...(body as object), id: 4, template_id: null },
      }),
    })
    renderDialog()
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'production')
    await choose(/User credentials/, 'deploy')
    await choose(/^Type/, 'File')
    const path = screen.getByRole('textbox', { name: /Path to the inventory file/ })
    await userEvent.type(path, '../etc/hosts')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(
      await screen.findByText('Invalid inventory file pathname. Must be: path/to/inventory.'),
    ).toBeInTheDocument()
    await userEvent.clear(path)
    await userEvent.type(path, '  inventories/production.ini  ')
    await choose(/Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Inventory production created')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      name: 'production',
      project_id: 3,
      type: 'file',
      inventory: 'inventories/production.ini',
      ssh_key_id: 2,
      become_key_id: null,
      repository_id: 7,
    })
  })
})
