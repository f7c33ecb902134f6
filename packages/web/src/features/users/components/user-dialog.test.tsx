import type { User } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { UserDialog } from './user-dialog'

const alice: User = {
  id: 2,
  created: '2025-01-01T00:00:00Z',
  username: 'alice',
  name: 'Alice Doe',
  email: 'alice@example.com',
  admin: false,
  external: false,
  alert: false,
  pro: false,
}

function renderDialog(user: User | null, viewerIsAdmin = true) {
  const onClose = vi.fn()
  renderWithProviders(
    <UserDialog open user={user} viewerIsAdmin={viewerIsAdmin} viewerId={1} onClose={onClose} />,
  )
  return { onClose }
}

const field = (name: RegExp | string) => screen.getByLabelText(name, { selector: 'input' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

describe('UserDialog', () => {
  it('requires name, username, email and, for a new user, a password', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Username is required')).toBeInTheDocument()
    expect(screen.getByText('Email is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('checks the username and email formats', async () => {
    mockFetch({})
    renderDialog(null)
    await userEvent.type(field(/^Username/), 'two words')
    await userEvent.type(field(/^Email/), 'not-an-email')
    await submit('Create')
    expect(await screen.findByText('Username can not contain spaces')).toBeInTheDocument()
    expect(screen.getByText('Email must be a valid email address')).toBeInTheDocument()
  })

  it('creates a user and names it in the confirmation', async () => {
    const { requests } = mockFetch({
      'POST /api/users': ({ body }) => ({
        status: 201,
        body: { ...alice, ...(body as object), id: 9 },
      }),
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'Bob Roe')
    await userEvent.type(field(/^Username/), 'bob')
    await userEvent.type(field(/^Email/), 'bob@example.com')
    await userEvent.type(field(/^Password/), 's3cret-pass')
    await userEvent.click(screen.getByRole('switch', { name: 'Admin user' }))
    await submit('Create')
    expect(await screen.findByText('User Bob Roe created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests[0]?.body).toEqual({
      name: 'Bob Roe',
      username: 'bob',
      email: 'bob@example.com',
      password: 's3cret-pass',
      alert: false,
      admin: true,
      pro: false,
    })
  })

  it('refuses a password below the minimum, in the form', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await userEvent.type(field(/^Name/), 'Bob Roe')
    await userEvent.type(field(/^Username/), 'bob')
    await userEvent.type(field(/^Email/), 'bob@example.com')
    await userEvent.type(field(/^Password/), 'short')
    await submit('Create')
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('fills in a sample password of 10 letters and digits, shown', async () => {
    mockFetch({})
    renderDialog(null)
    await userEvent.click(screen.getByRole('button', { name: 'Generate a sample password' }))
    const password = field(/^Password/) as HTMLInputElement
    expect(password.value).toMatch(/^[A-Za-z0-9]{10}$/)
    expect(password).toHaveAttribute('type', 'text')
  })

  it('does not require a password when editing', async () => {
    const { requests } = mockFetch({ 'PUT /api/users/2': { status: 204 } })
    renderDialog(alice)
    expect(field(/^Password/)).not.toBeRequired()
    await submit('Save')
    expect(await screen.findByText('User Alice Doe saved')).toBeInTheDocument()
    expect(requests[0]?.method).toBe('PUT')
    expect(requests[0]?.body).not.toHaveProperty('password')
  })

  it('disables email and password for external users', () => {
    mockFetch({})
    renderDialog({ ...alice, external: true })
    expect(field(/^Email/)).toBeDisabled()
    expect(field(/^Password/)).toBeDisabled()
    expect(field(/^Name/)).toBeEnabled()
  })

  it('shows the admin toggle only to admins and lets only admins set pro', () => {
    mockFetch({})
    renderDialog(alice, false)
    expect(screen.queryByRole('switch', { name: 'Admin user' })).not.toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Pro user' })).toBeDisabled()
  })

  it('lets admins set admin and pro', () => {
    mockFetch({})
    renderDialog(alice, true)
    expect(screen.getByRole('switch', { name: 'Admin user' })).toBeEnabled()
    expect(screen.getByRole('switch', { name: 'Pro user' })).toBeEnabled()
  })

  it('shows the server error in the form', async () => {
    mockFetch({ 'PUT /api/users/2': { status: 400, body: { error: 'Username already taken' } } })
    renderDialog(alice)
    await submit('Save')
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already taken')
  })
})
