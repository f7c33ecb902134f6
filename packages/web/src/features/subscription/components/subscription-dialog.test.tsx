import type { Subscription } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { SubscriptionDialog } from './subscription-dialog'

const community: Subscription = {
  key: '',
  plan: 'community',
  state: 'none',
  expiresAt: null,
  users: null,
  all_features_included: true,
}

function renderDialog() {
  const onClose = vi.fn()
  renderWithProviders(<SubscriptionDialog open onClose={onClose} />)
  return { onClose }
}

describe('SubscriptionDialog', () => {
  it('shows that the community edition includes every feature', async () => {
    mockFetch({ 'GET /api/subscription': { body: community } })
    renderDialog()
    expect(await screen.findByText('Community edition — all features included')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Activate' })).toBeEnabled()
    expect(screen.queryByText(/premium/i)).not.toBeInTheDocument()
  })

  it('requires a key and sends nothing without one', async () => {
    const { requests } = mockFetch({ 'GET /api/subscription': { body: community } })
    renderDialog()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Activate' }))
    expect(await screen.findByText('Key is required')).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0)
  })

  it("shows the server's refusal and stays open", async () => {
    const refusal =
      'This is the community edition: every feature is included and no subscription key is needed'
    const { requests } = mockFetch({
      'GET /api/subscription': { body: community },
      'POST /api/subscription': { status: 400, body: { error: refusal } },
    })
    const { onClose } = renderDialog()
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: /Subscription key/ }), ' ABCD ')
    await user.click(screen.getByRole('button', { name: 'Activate' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal)
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ key: 'ABCD' })
    expect(onClose).not.toHaveBeenCalled()
  })

  it('shows "already activated" as a warning, and a held plan with its state', async () => {
    mockFetch({
      'GET /api/subscription': {
        body: {
          ...community,
          plan: 'pro4',
          state: 'active',
          users: 4,
          all_features_included: false,
        },
      },
      'POST /api/subscription': { status: 400, body: { error: 'key already activated' } },
    })
    renderDialog()
    const user = userEvent.setup()
    expect(await screen.findByText('pro4')).toBeInTheDocument()
    expect(screen.getByText('Active')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: /Subscription key/ }), 'ABCD')
    await user.click(screen.getByRole('button', { name: 'Reactivate' }))
    const warning = await screen.findByRole('alert')
    expect(warning).toHaveTextContent('key already activated')
    expect(warning.className).toMatch(/colorWarning/)
  })
})
