import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RecoveryRoute, VerifyRoute } from './verify'

const TOTP_REQUIRED: MockResponse = { status: 401, body: { error: 'TOTP_REQUIRED' } }

function metadata(allowRecovery: boolean) {
  return {
    oidc_providers: [],
    login_with_password: true,
    auth_methods: { totp: { allow_recovery: allowRecovery } },
  }
}

function setup(
  routes: Record<string, MockResponse | (() => MockResponse)>,
  { allowRecovery = true, recovery = false } = {},
) {
  const server = mockFetch({
    'GET /api/user': TOTP_REQUIRED,
    'GET /api/auth/login': { body: metadata(allowRecovery) },
    'POST /api/auth/logout': { status: 204 },
    ...routes,
  })
  renderWithProviders(recovery ? <RecoveryRoute /> : <VerifyRoute />, {
    route: recovery ? '/auth/recovery' : '/auth/verify',
    path: recovery ? '/auth/recovery' : '/auth/verify',
  })
  return server
}

const codeField = () => screen.findByLabelText(/^Code/, { selector: 'input' })

describe('VerifyRoute', () => {
  it('sends the code as soon as six digits are typed and goes into the console', async () => {
    const { requests } = setup({ 'POST /api/auth/verify': { status: 200 } })
    const field = await codeField()
    await userEvent.type(field, '12a3 45')
    // Only digits are kept; five are not enough to send.
    expect(field).toHaveValue('12345')
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
    await userEvent.type(field, '6')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/))
    const post = requests.find((r) => r.method === 'POST' && r.path === '/api/auth/verify')
    expect(post?.body).toEqual({ passcode: '123456' })
  })

  it('says the code is incorrect and lets the next one be typed', async () => {
    setup({ 'POST /api/auth/verify': { status: 400 } })
    const field = await codeField()
    await userEvent.type(field, '000000')
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect code')
    expect(field).toHaveValue('')
    expect(screen.getByTestId('location')).toHaveTextContent('/auth/verify')
  })

  it('shows the server’s words when throttled', async () => {
    setup({
      'POST /api/auth/verify': {
        status: 429,
        body: { error: 'Too many failed sign-in attempts. Try again in 60 seconds.' },
      },
    })
    await userEvent.type(await codeField(), '111111')
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-in attempts')
  })

  it('asks for six digits when sent short', async () => {
    const { requests } = setup({})
    await userEvent.type(await codeField(), '123')
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('The code has 6 digits')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it('offers the recovery code only when the server allows it', async () => {
    setup({}, { allowRecovery: true })
    const link = await screen.findByRole('link', { name: 'Use a recovery code' })
    expect(link).toHaveAttribute('href', '/auth/recovery')
  })

  it('has no recovery link when recovery is not allowed', async () => {
    setup({}, { allowRecovery: false })
    await codeField()
    expect(screen.queryByRole('link', { name: 'Use a recovery code' })).not.toBeInTheDocument()
  })

  it('signs out back to the sign-in page', async () => {
    const { requests } = setup({})
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login'))
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/auth/logout')).toBe(true)
  })

  it('sends a signed-out visitor to the sign-in page', async () => {
    setup({ 'GET /api/user': { status: 401 } })
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/login'))
  })
})

describe('RecoveryRoute', () => {
  const recoveryField = () => screen.findByLabelText(/^Recovery code/, { selector: 'input' })

  it('requires the recovery code', async () => {
    const { requests } = setup({}, { recovery: true })
    await recoveryField()
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('Recovery code is required')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it('signs in with the recovery code', async () => {
    const { requests } = setup({ 'POST /api/auth/recovery': { status: 204 } }, { recovery: true })
    await userEvent.type(await recoveryField(), 'ABCDEFGHIJKLMNOP')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/))
    const post = requests.find((r) => r.path === '/api/auth/recovery')
    expect(post?.body).toEqual({ recovery_code: 'ABCDEFGHIJKLMNOP' })
  })

  it('says a wrong recovery code is incorrect, and links back to the app code', async () => {
    setup({ 'POST /api/auth/recovery': { status: 400 } }, { recovery: true })
    await userEvent.type(await recoveryField(), 'WRONG')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect recovery code')
    expect(screen.getByRole('link', { name: 'Use a code from the app' })).toHaveAttribute(
      'href',
      '/auth/verify',
    )
  })

  it('goes back to the code screen when recovery is not allowed', async () => {
    setup({}, { recovery: true, allowRecovery: false })
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth/verify'))
  })
})
