import type { IntegrationMatcher } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { MatcherDialog } from './matcher-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const branch: IntegrationMatcher = {
  id: 4,
  integration_id: 8,
  name: 'main branch',
  match_type: 'body',
  method: 'equals',
  body_data_type: 'json',
  key: 'ref',
  value: 'refs/heads/main',
}

function renderDialog(matcher: IntegrationMatcher | null) {
  const onClose = vi.fn()
  renderWithProviders(
    <MatcherDialog open projectId={3} integrationId={8} matcher={matcher} onClose={onClose} />,
  )
  return { onClose }
}

const field = (name: RegExp | string) => screen.getByLabelText(name, { selector: 'input' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('MatcherDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires each field with its own message', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Match source is required')).toBeInTheDocument()
    expect(screen.getByText('Value is required')).toBeInTheDocument()
    await choose(/^Match source/, 'Header')
    await submit('Create')
    expect(await screen.findByText('Key is required')).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: /^Body data format/ })).not.toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('creates a header matcher', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/integrations/8/matchers': { body: { ...branch, id: 9 } },
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'event')
    await choose(/^Match source/, 'Header')
    await userEvent.type(field(/^Key/), 'X-GitHub-Event')
    await choose(/^Comparison method/, 'Contains')
    await userEvent.type(field(/^Value/), 'push')
    await submit('Create')
    expect(await screen.findByText('Matcher event created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests[0]?.body).toEqual({
      integration_id: 8,
      name: 'event',
      match_type: 'header',
      method: 'contains',
      body_data_type: '',
      key: 'X-GitHub-Event',
      value: 'push',
    })
  })

  it('edits a body matcher; a string body has no key', async () => {
    const { requests } = mockFetch({
      'PUT /api/project/3/integrations/8/matchers/4': { status: 204 },
    })
    renderDialog(branch)
    expect(field(/^Key/)).toHaveValue('ref')
    await choose(/^Body data format/, 'String')
    expect(screen.queryByLabelText(/^Key/)).not.toBeInTheDocument()
    await submit('Save')
    expect(await screen.findByText('Matcher main branch saved')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      id: 4,
      integration_id: 8,
      name: 'main branch',
      match_type: 'body',
      method: 'equals',
      body_data_type: 'string',
      key: '',
      value: 'refs/heads/main',
    })
  })

  it('shows the server refusal in the dialog', async () => {
    mockFetch({
      'POST /api/project/3/integrations/8/matchers': {
        status: 400,
        body: { error: 'No value set' },
      },
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'event')
    await choose(/^Match source/, 'Header')
    await userEvent.type(field(/^Key/), 'X-Event')
    await userEvent.type(field(/^Value/), 'push')
    await submit('Create')
    expect(await screen.findByRole('alert')).toHaveTextContent('No value set')
    expect(field(/^Name/)).toHaveValue('event')
    expect(onClose).not.toHaveBeenCalled()
  })
})
