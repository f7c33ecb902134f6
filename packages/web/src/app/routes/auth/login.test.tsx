import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { LoginRoute } from './login'

const metadata = {
  oidc_providers: [{ id: 'github', name: 'GitHub', color: '#24292e', icon: 'github' }],
  login_with_password: true,
  auth_methods: {},
}

function setup(login: MockResponse, meta: object = metadata) {
  const server = mockFetch({
    'GET /api/user': { status: 401 },
    'GET /api/auth/login': { body: meta },
    'POST /api/auth/login': login,
  })
  renderWithProviders(<LoginRoute />, { route: '/auth/login', path: '/auth/login' })
  return server
}

async function signIn(username = 'admin', password = 'wrong') {
  await userEvent.type(await screen.findByLabelText(/Username or email/), username)
  await userEvent.type(screen.getByLabelText(/^Password/), password)
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('LoginRoute', () => {
  it('says the login or password is incorrect on 401', async () => {
    const { requests } = setup({ status: 401 })
    await signIn()
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect login or password')
    const post = requests.find((r) => r.method === 'POST')
    expect(post?.body).toEqual({ auth: 'admin', password: 'wrong' })
    expect(post?.headers['content-type']).toBe('application/json')
  })

  it("shows the server's text when throttled", async () => {
    setup({ status: 429, body: { error: 'Too many login attempts, try again in a minute' } })
    await signIn()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many login attempts, try again in a minute',
    )
  })

  it('requires username and password', async () => {
    const { requests } = setup({ status: 204 })
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('Username is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it('goes into the console after signing in', async () => {
    setup({ status: 204 })
    await signIn('admin', 'admin')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/))
  })

  it('offers one button per single-sign-on provider', async () => {
    setup({ status: 204 })
    const link = await screen.findByRole('link', { name: 'GitHub' })
    expect(link).toHaveAttribute('href', '/api/auth/oidc/github/login')
  })

  it('hides the password form when the server disables it', async () => {
    setup({ status: 204 }, { ...metadata, login_with_password: false })
    expect(await screen.findByRole('link', { name: 'GitHub' })).toBeInTheDocument()
    expect(screen.queryByLabelText(/Username or email/)).not.toBeInTheDocument()
  })

  it('explains the command-line tool in the help dialog', async () => {
    setup({ status: 204 })
    await userEvent.click(await screen.findByRole('button', { name: 'Trouble signing in?' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('flagman user list')
    expect(dialog).toHaveTextContent('flagman user change-by-login --login L --password P')
    expect(dialog).toHaveTextContent(
      'flagman user add --admin --login L --password P --name N --email E',
    )
  })

  it('redirects into the console when already signed in', async () => {
    mockFetch({
      'GET /api/user': { body: { id: 1, name: 'Admin' } },
      'GET /api/auth/login': { body: metadata },
    })
    renderWithProviders(<LoginRoute />, { route: '/auth/login', path: '/auth/login' })
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/))
  })

  it('goes to the code screen when the session still needs a second factor', async () => {
    mockFetch({
      'GET /api/user': { status: 401, body: { error: 'TOTP_REQUIRED' } },
      'GET /api/auth/login': { body: metadata },
    })
    renderWithProviders(<LoginRoute />, { route: '/auth/login?t=3', path: '/auth/login' })
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/auth\/verify\?t=3$/),
    )
  })

  describe('single sign-on', () => {
    function openAt(route: string, meta: object = metadata) {
      mockFetch({
        'GET /api/user': { status: 401 },
        'GET /api/auth/login': { body: meta },
      })
      renderWithProviders(<LoginRoute />, { route, path: '/auth/login' })
    }

    it('offers the providers in the order the server gives, with the redirect asked for', async () => {
      openAt('/auth/login?new_project=premium', {
        ...metadata,
        oidc_providers: [
          { id: 'corp', name: 'Corp SSO', color: 'teal', icon: 'mdi-microsoft' },
          { id: 'github', name: 'GitHub', color: '#24292e', icon: 'github' },
        ],
      })
      await screen.findByRole('link', { name: 'Corp SSO' })
      const links = screen.getAllByRole('link')
      expect(links.map((link) => link.textContent)).toEqual(['Corp SSO', 'GitHub'])
      expect(links[0]).toHaveAttribute(
        'href',
        '/api/auth/oidc/corp/login?redirect=%2Fproject%2Fpremium',
      )
    })

    it('explains why the provider sent the browser back', async () => {
      openAt('/auth/login?error=oidc_local_account')
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'A local account already uses this email address. Sign in with its password instead.',
      )
    })

    it('says the provider could not be reached', async () => {
      openAt('/auth/login?error=oidc_provider_unavailable')
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The sign-in provider could not be reached.',
      )
    })

    it('shows a general message for a reason it does not know, never the text given', async () => {
      openAt('/auth/login?error=oidc_%3Cb%3Eyou+were+hacked%3C%2Fb%3E')
      const alert = await screen.findByRole('alert')
      expect(alert).toHaveTextContent('Single sign-on failed. Please try again.')
      expect(alert).not.toHaveTextContent('hacked')
    })

    it('shows nothing for other parameters', async () => {
      openAt('/auth/login?error=whatever')
      await screen.findByRole('link', { name: 'GitHub' })
      expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    })

    it('does not carry the error into the console after signing in', async () => {
      mockFetch({
        'GET /api/user': { status: 401 },
        'GET /api/auth/login': { body: metadata },
        'POST /api/auth/login': { status: 204 },
      })
      renderWithProviders(<LoginRoute />, {
        route: '/auth/login?error=oidc_denied&t=4',
        path: '/auth/login',
      })
      await signIn('admin', 'admin')
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?t=4$/))
    })
  })
})
