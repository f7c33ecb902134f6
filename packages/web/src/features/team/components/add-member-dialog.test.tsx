import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { AddMemberDialog } from './add-member-dialog'

const users = [
  { id: 1, username: 'admin', name: 'Ada Admin' },
  { id: 2, username: 'bob', name: 'Bob Roe' },
]

describe('AddMemberDialog', () => {
  it('requires a user and a role', async () => {
    const { requests } = mockFetch({ 'GET /api/users': { body: users } })
    renderWithProviders(<AddMemberDialog open projectId={3} memberIds={[1]} onClose={vi.fn()} />)
    await userEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(await screen.findByText('User is required')).toBeInTheDocument()
    expect(screen.getByText('Role is required')).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0)
  })

  it('adds a user who is not yet a member', async () => {
    const onClose = vi.fn()
    const { requests } = mockFetch({
      'GET /api/users': { body: users },
      'POST /api/project/3/users': { status: 204 },
    })
    renderWithProviders(<AddMemberDialog open projectId={3} memberIds={[1]} onClose={onClose} />)
    await userEvent.click(screen.getByRole('combobox', { name: /User/ }))
    const options = within(await screen.findByRole('listbox')).getAllByRole('option')
    expect(options.map((option) => option.textContent)).toEqual(['Bob Roe (bob)'])
    await userEvent.click(options[0] as HTMLElement)
    await userEvent.click(screen.getByRole('combobox', { name: /Role/ }))
    await userEvent.click(await screen.findByRole('option', { name: 'Manager' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(await screen.findByText('Bob Roe added to the team')).toBeInTheDocument()
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ user_id: 2, role: 'manager' })
    expect(onClose).toHaveBeenCalled()
  })
})
