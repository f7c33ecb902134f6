import type { App } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { AppEditDialog } from './app-edit-dialog'

const python: App = {
  id: 'python',
  title: 'Python',
  active: true,
  priority: 500,
  icon: 'python',
  color: '#306998',
  dark_color: '#ffd43b',
  path: '',
  args: ['-u'],
}

describe('AppEditDialog', () => {
  it('keeps the state and the dark colour of an edited app', async () => {
    const { requests } = mockFetch({ 'PUT /api/apps/python': { status: 204 } })
    const onClose = vi.fn()
    renderWithProviders(<AppEditDialog open app={python} onClose={onClose} />)
    const title = await screen.findByRole('textbox', { name: 'Title' })
    await userEvent.clear(title)
    await userEvent.type(title, 'Python 3')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Application Python 3 saved')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      title: 'Python 3',
      icon: 'python',
      color: '#306998',
      dark_color: '#ffd43b',
      priority: 500,
      path: '',
      args: ['-u'],
      active: true,
    })
  })

  it('requires an id and adds a new app switched off', async () => {
    const { requests } = mockFetch({ 'PUT /api/apps/deno': { status: 204 } })
    renderWithProviders(<AppEditDialog open app={null} onClose={vi.fn()} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }))
    expect(await screen.findByText('ID is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
    await userEvent.type(screen.getByRole('textbox', { name: /^ID/ }), 'deno')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Application deno saved')).toBeInTheDocument()
    expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      active: false,
      priority: 0,
    })
  })
})
