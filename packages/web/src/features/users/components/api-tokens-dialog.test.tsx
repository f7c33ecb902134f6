import type { ApiToken } from '@flagman/contract'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { type MockResponse, mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ApiTokensDialog } from './api-tokens-dialog'
import { endOfDay } from './create-token-form'

const WHOLE = 'abcdefgh0123456789_-abcdefgh0123456789_-abc='

const used: ApiToken = {
  id: 'qwertyui',
  prefix: 'qwertyui',
  name: 'deploy bot',
  created: '2025-03-01T10:00:00.000Z',
  expires_at: null,
  last_used: '2025-03-02T11:30:00.000Z',
  expired: false,
  user_id: 4,
}

const revoked: ApiToken = {
  ...used,
  id: 'zxcvbnm1',
  prefix: 'zxcvbnm1',
  name: '',
  last_used: null,
  expired: true,
}

function setup(routes: Record<string, MockResponse | ((r: never) => MockResponse)> = {}) {
  const server = mockFetch({ 'GET /api/user/tokens': { body: [used, revoked] }, ...routes })
  const onClose = vi.fn()
  renderWithProviders(<ApiTokensDialog open onClose={onClose} />)
  return { ...server, onClose }
}

describe('ApiTokensDialog', () => {
  it('lists tokens by name and prefix, with when they were used and whether they ended', async () => {
    setup()
    const table = await screen.findByRole('table', { name: 'API tokens' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(within(rows[1]!).getByText('deploy bot')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('qwertyui…')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Never')).toBeInTheDocument()
    expect(within(rows[1]!).getByRole('button', { name: 'Revoke deploy bot' })).toBeInTheDocument()
    expect(within(rows[2]!).getByText('Unnamed')).toBeInTheDocument()
    expect(within(rows[2]!).getAllByText('Never')).toHaveLength(2)
    expect(within(rows[2]!).getByText('Revoked or expired')).toBeInTheDocument()
    expect(within(rows[2]!).queryByRole('button')).not.toBeInTheDocument()
  })

  it('creates a token with a name and an expiry and shows it once, with a copy button', async () => {
    const created: ApiToken = {
      ...used,
      id: WHOLE,
      prefix: WHOLE.slice(0, 8),
      name: 'ci',
      last_used: null,
      expires_at: endOfDay('2099-12-31'),
    }
    const { requests } = setup({ 'POST /api/user/tokens': { status: 201, body: created } })
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'ci')
    await user.type(screen.getByLabelText('Expires on'), '2099-12-31')
    await user.click(screen.getByRole('button', { name: 'Create token' }))

    const field = await screen.findByLabelText('New token ci', { selector: 'input' })
    expect(field).toHaveValue(WHOLE)
    expect(screen.getByText(/it is shown only once/)).toBeInTheDocument()
    const post = requests.find((r) => r.method === 'POST')
    expect(post?.body).toEqual({ name: 'ci', expires_at: endOfDay('2099-12-31') })

    await user.click(screen.getByRole('button', { name: 'Copy the token' }))
    expect(writeText).toHaveBeenCalledWith(WHOLE)
    expect(
      await screen.findByText('The token has been copied to your clipboard.'),
    ).toBeInTheDocument()
    // The list is read again, and once done the whole token is gone for good.
    await waitFor(() =>
      expect(
        requests.filter((r) => r.method === 'GET' && r.path === '/api/user/tokens'),
      ).toHaveLength(2),
    )
    await user.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByDisplayValue(WHOLE)).not.toBeInTheDocument()
  })

  it('sends no expiry when none is chosen, and requires a name', async () => {
    const { requests } = setup({
      'POST /api/user/tokens': { status: 201, body: { ...used, id: WHOLE, name: 'x' } },
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Create token' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'x')
    await user.click(screen.getByRole('button', { name: 'Create token' }))
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        name: 'x',
        expires_at: null,
      }),
    )
  })

  it('refuses an expiry in the past', async () => {
    const { requests } = setup()
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'old')
    await user.type(screen.getByLabelText('Expires on'), '2001-01-01')
    await user.click(screen.getByRole('button', { name: 'Create token' }))
    expect(await screen.findByText('Must be today or later')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it("shows the server's refusal", async () => {
    setup({
      'POST /api/user/tokens': { status: 400, body: { error: 'expires_at must be in the future' } },
    })
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'late')
    await user.click(screen.getByRole('button', { name: 'Create token' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('expires_at must be in the future')
  })

  it('revokes a token after asking', async () => {
    const { requests } = setup({ 'DELETE /api/user/tokens/qwertyui': { status: 204 } })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Revoke deploy bot' }))
    const confirm = await screen.findByRole('dialog', { name: 'Revoke token?' })
    expect(within(confirm).getByText(/deploy bot will no longer be able/)).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false)
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText('Token deploy bot revoked')).toBeInTheDocument()
    expect(
      requests.some((r) => r.method === 'DELETE' && r.path === '/api/user/tokens/qwertyui'),
    ).toBe(true)
  })
})
