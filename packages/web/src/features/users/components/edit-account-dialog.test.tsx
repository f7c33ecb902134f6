import type { CurrentUser } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { EditAccountDialog } from './edit-account-dialog'

const me: CurrentUser = {
  id: 4,
  created: '2025-01-01T00:00:00Z',
  username: 'alice',
  name: 'Alice Doe',
  email: 'alice@example.com',
  admin: false,
  external: false,
  alert: false,
  pro: false,
  can_create_project: false,
  has_active_subscription: false,
}

const enrolment = {
  id: 7,
  created: '2025-02-01T00:00:00Z',
  user_id: 4,
  url: 'otpauth://totp/Flagman:alice%40example.com?issuer=Flagman&secret=JBSWY3DPEHPK3PXP',
  recovery_code: 'ABCDEFGHIJKLMNOP',
}

function info(totp: boolean) {
  return {
    version: '1.0.0',
    ansible: '',
    web_host: 'http://localhost',
    use_remote_runner: false,
    auth_methods: totp ? { totp: { allow_recovery: true } } : {},
    premium_features: { project_runners: false, terraform_backend: false },
  }
}

function setup(user: CurrentUser, routes: Record<string, MockResponse> = {}, totp = true) {
  const server = mockFetch({ 'GET /api/info': { body: info(totp) }, ...routes })
  renderWithProviders(<EditAccountDialog open user={user} onClose={vi.fn()} />)
  return server
}

describe('EditAccountDialog two-factor', () => {
  it('is not offered when the server has two-factor sign-in off', async () => {
    const { requests } = setup(me, {}, false)
    await waitFor(() => expect(requests.some((r) => r.path === '/api/info')).toBe(true))
    await screen.findByRole('button', { name: 'Save' })
    expect(screen.queryByRole('button', { name: 'Enable two-factor' })).not.toBeInTheDocument()
  })

  it('enables it and shows the QR code, the address and the recovery code once', async () => {
    const { requests } = setup(me, { 'POST /api/users/4/2fas/totp': { body: enrolment } })
    expect(
      await screen.findByText(/Two-factor authentication is off/, undefined, { timeout: 10_000 }),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Enable two-factor' }))

    const qr = await screen.findByRole('img', { name: 'QR code for the authenticator app' })
    expect(qr).toHaveAttribute('src', '/api/users/4/2fas/totp/7/qr')
    expect(screen.getByLabelText('Authenticator address', { selector: 'input' })).toHaveValue(
      enrolment.url,
    )
    expect(screen.getByLabelText('Recovery code', { selector: 'input' })).toHaveValue(
      'ABCDEFGHIJKLMNOP',
    )
    expect(screen.getByText(/it is shown only once/)).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Disable two-factor' })).toBeInTheDocument()
  })

  it('copies the recovery code and says so', async () => {
    setup(me, { 'POST /api/users/4/2fas/totp': { body: enrolment } })
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(await screen.findByRole('button', { name: 'Enable two-factor' }))
    await user.click(await screen.findByRole('button', { name: 'Copy the recovery code' }))
    expect(writeText).toHaveBeenCalledWith('ABCDEFGHIJKLMNOP')
    expect(
      await screen.findByText('The recovery code has been copied to your clipboard.'),
    ).toBeInTheDocument()
  })

  it('says why the recovery code could not be copied', async () => {
    setup(me, { 'POST /api/users/4/2fas/totp': { body: enrolment } })
    const user = userEvent.setup()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Permission denied'))
    await user.click(await screen.findByRole('button', { name: 'Enable two-factor' }))
    await user.click(await screen.findByRole('button', { name: 'Copy the recovery code' }))
    expect(
      await screen.findByText("Can't copy the recovery code: Permission denied"),
    ).toBeInTheDocument()
  })

  it('disables it', async () => {
    const withTotp = { ...me, totp: { id: 7, created: enrolment.created, user_id: 4 } }
    const { requests } = setup(withTotp, {
      'DELETE /api/users/4/2fas/totp/7': { status: 204 },
    })
    expect(await screen.findByText('Two-factor authentication is on.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Disable two-factor' }))
    await waitFor(() =>
      expect(
        requests.some((r) => r.method === 'DELETE' && r.path === '/api/users/4/2fas/totp/7'),
      ).toBe(true),
    )
    expect(await screen.findByText('Two-factor authentication disabled')).toBeInTheDocument()
    // The secret is never shown for a second factor that already exists.
    expect(within(document.body).queryByRole('img')).not.toBeInTheDocument()
  })
})
