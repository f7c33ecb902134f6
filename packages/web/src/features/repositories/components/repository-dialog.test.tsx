import type { Repository } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RepositoryDialog } from './repository-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const keys = [
  { id: 1, name: 'None' },
  { id: 2, name: 'deploy' },
]

const site: Repository = {
  id: 7,
  name: 'site',
  project_id: 3,
  git_url: 'https://example.com/site.git',
  git_branch: 'main',
  ssh_key_id: 2,
}

function renderDialog(repository: Repository | null = null) {
  const onClose = vi.fn()
  renderWithProviders(
    <RepositoryDialog open projectId={3} repository={repository} keys={keys} onClose={onClose} />,
  )
  return { onClose }
}

const field = (name: RegExp | string) => screen.getByLabelText(name, { selector: 'input' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

async function chooseKey(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: /Access key/ }))
  await userEvent.click(await screen.findByRole('option', { name }))
}

describe('RepositoryDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires a name, a URL and an access key', async () => {
    const { requests } = mockFetch({})
    renderDialog()
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('URL is required')).toBeInTheDocument()
    expect(screen.getByText('Access key is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it.each(['ftp://example.com/repo.git', 'not a url', 'https://'])(
    'says Incorrect URL for %s',
    async (url) => {
      const { requests } = mockFetch({})
      renderDialog()
      await userEvent.type(field(/^URL or path/), url)
      await submit('Create')
      expect(await screen.findByText('Incorrect URL')).toBeInTheDocument()
      expect(requests).toHaveLength(0)
    },
  )

  it('refuses a URL with a password and points to the key store', async () => {
    const { requests } = mockFetch({})
    renderDialog()
    await userEvent.type(field(/^URL or path/), 'https://deploy:s3cret@example.com/site.git')
    await submit('Create')
    expect(
      await screen.findByText(
        'Incorrect URL: put the password in a key of the key store (login with password) instead of the URL',
      ),
    ).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('needs a branch for a remote URL, and trims URL and branch', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/repositories': { status: 201, body: { ...site, id: 8 } },
    })
    const { onClose } = renderDialog()
    await userEvent.type(field(/^Name/), 'site')
    await userEvent.type(field(/^URL or path/), '  git@github.com:acme/site.git  ')
    await chooseKey('deploy')
    await submit('Create')
    expect(await screen.findByText('Branch is required')).toBeInTheDocument()
    await userEvent.type(field(/^Branch/), ' develop ')
    await submit('Create')
    expect(await screen.findByText('Repository site created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests[0]?.body).toEqual({
      name: 'site',
      project_id: 3,
      git_url: 'git@github.com:acme/site.git',
      git_branch: 'develop',
      ssh_key_id: 2,
    })
  })

  it('hides the branch of a local repository and sends none', async () => {
    const { requests } = mockFetch({ 'PUT /api/project/3/repositories/7': { status: 204 } })
    renderDialog(site)
    expect(field(/^Branch/)).toHaveValue('main')
    await userEvent.clear(field(/^URL or path/))
    await userEvent.type(field(/^URL or path/), '/srv/playbooks')
    expect(screen.queryByLabelText(/^Branch/)).not.toBeInTheDocument()
    await submit('Save')
    expect(await screen.findByText('Repository site saved')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      id: 7,
      name: 'site',
      project_id: 3,
      git_url: '/srv/playbooks',
      git_branch: '',
      ssh_key_id: 2,
    })
  })
})
