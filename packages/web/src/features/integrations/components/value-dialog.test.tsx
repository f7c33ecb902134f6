import type { IntegrationExtractValue } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { ValueDialog } from './value-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const ref: IntegrationExtractValue = {
  id: 2,
  integration_id: 8,
  name: 'git ref',
  value_source: 'body',
  body_data_type: 'json',
  key: 'ref',
  variable: 'GIT_REF',
}

function renderDialog(value: IntegrationExtractValue | null) {
  const onClose = vi.fn()
  renderWithProviders(
    <ValueDialog open projectId={3} integrationId={8} value={value} onClose={onClose} />,
  )
  return { onClose }
}

const field = (name: RegExp | string) => screen.getByLabelText(name, { selector: 'input' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('ValueDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires each field and a valid variable name', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Value source is required')).toBeInTheDocument()
    expect(screen.getByText('Variable is required')).toBeInTheDocument()
    await choose(/^Value source/, 'Body')
    await userEvent.type(field(/^Variable/), '1-ref')
    await submit('Create')
    expect(await screen.findByText('Key is required')).toBeInTheDocument()
    expect(
      screen.getByText(
        'Variable must start with a letter or "_" and hold only letters, digits and "_"',
      ),
    ).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('creates a value read from a JSON body', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/integrations/8/values': { status: 201, body: ref },
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'git ref')
    await choose(/^Value source/, 'Body')
    await userEvent.type(field(/^Key/), 'ref')
    await userEvent.type(field(/^Variable/), 'GIT_REF')
    await submit('Create')
    expect(await screen.findByText('Extracted value git ref created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests[0]?.body).toEqual({
      integration_id: 8,
      name: 'git ref',
      value_source: 'body',
      body_data_type: 'json',
      key: 'ref',
      variable: 'GIT_REF',
    })
  })

  it('edits a value to read a header', async () => {
    const { requests } = mockFetch({
      'PUT /api/project/3/integrations/8/values/2': { status: 204 },
    })
    renderDialog(ref)
    await choose(/^Value source/, 'Header')
    expect(screen.queryByRole('combobox', { name: /^Body data type/ })).not.toBeInTheDocument()
    await userEvent.clear(field(/^Key/))
    await userEvent.type(field(/^Key/), 'X-Delivery')
    await submit('Save')
    expect(await screen.findByText('Extracted value git ref saved')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      id: 2,
      integration_id: 8,
      name: 'git ref',
      value_source: 'header',
      body_data_type: '',
      key: 'X-Delivery',
      variable: 'GIT_REF',
    })
  })
})
