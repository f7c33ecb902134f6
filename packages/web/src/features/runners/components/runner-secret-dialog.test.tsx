import type { CreatedRunner } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { RunnerSecretDialog } from './runner-secret-dialog'

const KEY = `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(200)}\n-----END RSA PRIVATE KEY-----\n`

const created: CreatedRunner = {
  id: 9,
  project_id: null,
  name: 'edge',
  webhook: '',
  max_parallel_tasks: 0,
  active: true,
  tag: 'linux,arm64',
  touched: null,
  online: false,
  running_tasks: [],
  token: 'runner-token-123',
  private_key: KEY,
}

afterEach(() => vi.restoreAllMocks())

function renderDialog(runner: CreatedRunner = created) {
  const onClose = vi.fn()
  renderWithProviders(
    <RunnerSecretDialog
      runner={runner}
      serverUrl="https://flagman.example.test"
      onClose={onClose}
    />,
  )
  return { onClose }
}

describe('RunnerSecretDialog', () => {
  it('shows the token, the key cut to 90 characters and the exact start command', () => {
    renderDialog()
    expect(screen.getByText(/they will not be shown again/)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Runner token' })).toHaveValue('runner-token-123')
    expect(screen.getByRole('textbox', { name: 'Private key' })).toHaveValue(`${KEY.slice(0, 90)}…`)
    expect(screen.getByRole('textbox', { name: 'Command to start the runner' })).toHaveValue(
      'flagman runner start --server https://flagman.example.test --token runner-token-123 ' +
        '--private-key-file config.runner.key --tags linux,arm64',
    )
  })

  it('leaves the tags out of the command of an untagged runner', () => {
    renderDialog({ ...created, tag: '' })
    expect(screen.getByRole('textbox', { name: 'Command to start the runner' })).toHaveValue(
      'flagman runner start --server https://flagman.example.test --token runner-token-123 ' +
        '--private-key-file config.runner.key',
    )
  })

  it('copies the token, the whole key and the command', async () => {
    renderDialog()
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(screen.getByRole('button', { name: 'Copy the token' }))
    expect(writeText).toHaveBeenLastCalledWith('runner-token-123')
    expect(
      await screen.findByText('The token has been copied to the clipboard.'),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Copy the private key' }))
    expect(writeText).toHaveBeenLastCalledWith(KEY)
    await user.click(screen.getByRole('button', { name: 'Copy the command' }))
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining('flagman runner start'))
  })

  it('downloads the whole key as config.runner.key', async () => {
    renderDialog()
    const user = userEvent.setup()
    let blob: Blob | null = null
    const createObjectURL = vi.fn((value: Blob) => {
      blob = value
      return 'blob:runner-key'
    })
    // jsdom has no object URLs: the browser's pair is stood in for during this test.
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL }
    URL.createObjectURL = createObjectURL
    URL.revokeObjectURL = vi.fn()
    onTestFinished(() => {
      URL.createObjectURL = original.create
      URL.revokeObjectURL = original.revoke
    })
    let fileName = ''
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      fileName = this.download
    })
    await user.click(screen.getByRole('button', { name: 'Download config.runner.key' }))
    expect(fileName).toBe('config.runner.key')
    expect(await (blob as unknown as Blob).text()).toBe(KEY)
  })

  it('closes only with the explicit button', async () => {
    const { onClose } = renderDialog()
    const user = userEvent.setup()
    await user.keyboard('{Escape}')
    expect(onClose).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'I have saved them' }))
    expect(onClose).toHaveBeenCalled()
  })
})
