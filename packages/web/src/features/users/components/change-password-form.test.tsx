import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ChangePasswordForm } from './change-password-form'

function setup(answer: MockResponse = { status: 204 }, external = false) {
  const server = mockFetch({ 'POST /api/users/4/password': answer })
  renderWithProviders(<ChangePasswordForm userId={4} external={external} />)
  return server
}

const current = () => screen.getByLabelText(/^Current password/, { selector: 'input' })
const next = () => screen.getByLabelText(/^New password/, { selector: 'input' })

describe('ChangePasswordForm', () => {
  it('sends the current password with the new one', async () => {
    const { requests } = setup()
    const user = userEvent.setup()
    await user.type(current(), 'old-secret')
    await user.type(next(), 'new-secret')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Password changed')).toBeInTheDocument()
    expect(requests).toHaveLength(1)
    expect(requests[0]?.body).toEqual({ password: 'new-secret', current_password: 'old-secret' })
    await waitFor(() => expect(current()).toHaveValue(''))
    expect(next()).toHaveValue('')
  })

  it('requires both fields', async () => {
    const { requests } = setup()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Current password is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('shows why the server refused, keeping what was typed', async () => {
    setup({ status: 400, body: { error: 'The current password is incorrect' } })
    const user = userEvent.setup()
    await user.type(current(), 'wrong')
    await user.type(next(), 'new-secret')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is incorrect')
    expect(next()).toHaveValue('new-secret')
  })

  it('says that external users have no password here, instead of showing fields', async () => {
    const { requests } = setup(undefined, true)
    expect(await screen.findByText(/signs in through an external provider/)).toBeInTheDocument()
    expect(screen.queryByLabelText(/password/i, { selector: 'input' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Change password' })).not.toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })
})
