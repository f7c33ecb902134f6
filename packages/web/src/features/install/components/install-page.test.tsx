import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { RELEASES } from '../data/releases'
import { InstallPage, type InstallTab } from './install-page'

const hrefs = {
  artifacts: '/project/3/install',
  images: '/project/3/install/images',
  configs: '/project/3/install/configs',
}

function renderPage(tab: InstallTab) {
  renderWithProviders(<InstallPage tab={tab} hrefs={hrefs} serverVersion="0.1.0-4-gabcdef" />)
}

/** Files the page saves: jsdom has no object URLs, so the browser's pair is stood in for. */
function captureDownloads() {
  const files: Array<{ name: string; blob: Blob }> = []
  let last: Blob | null = null
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL }
  URL.createObjectURL = vi.fn((blob: Blob) => {
    last = blob
    return 'blob:download'
  })
  URL.revokeObjectURL = vi.fn()
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    if (last) files.push({ name: this.download, blob: last })
  })
  onTestFinished(() => {
    URL.createObjectURL = original.create
    URL.revokeObjectURL = original.revoke
    click.mockRestore()
  })
  return files
}

describe('InstallPage', () => {
  it('links its three tabs', () => {
    renderPage('artifacts')
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('href')])).toEqual([
      ['Download and Install', hrefs.artifacts],
      ['Images', hrefs.images],
      ['Configurations', hrefs.configs],
    ])
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true')
  })

  it('lists the releases, marks the one this server runs, and shows an install command', async () => {
    renderPage('artifacts')
    const user = userEvent.setup()
    const release = RELEASES[0]!
    expect(
      screen.getByRole('button', { name: new RegExp(`Flagman ${release.version}`) }),
    ).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Running on this server')).toBeInTheDocument()
    const assets = screen.getByRole('table', { name: `Ways to install Flagman ${release.version}` })
    expect(within(assets).getAllByRole('row')).toHaveLength(release.assets.length + 1)

    await user.click(screen.getByRole('button', { name: 'Install From the repository' }))
    const guide = await screen.findByRole('dialog', { name: /Install From the repository/ })
    expect(
      within(guide).getByText('npm ci && npm run build && bin/flagman server'),
    ).toBeInTheDocument()

    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(within(guide).getByRole('button', { name: 'Copy Command' }))
    expect(writeText).toHaveBeenCalledWith('npm ci && npm run build && bin/flagman server')
    expect(
      await screen.findByText('The command has been copied to the clipboard.'),
    ).toBeInTheDocument()
  })

  it("says why a command can't be copied", async () => {
    renderPage('images')
    const user = userEvent.setup()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('Denied'))
    await user.click(screen.getByRole('button', { name: 'Copy Build the image' }))
    expect(await screen.findByText("Can't copy the command: Denied")).toBeInTheDocument()
  })

  it('downloads an asset file', async () => {
    renderPage('artifacts')
    const files = captureDownloads()
    await userEvent.click(
      screen.getByRole('button', { name: 'Download flagman.service (systemd service)' }),
    )
    expect(files.map((file) => file.name)).toEqual(['flagman.service'])
    expect(await files[0]!.blob.text()).toContain(
      'ExecStart=/usr/bin/node /opt/flagman/bin/flagman server',
    )
  })

  it('shows each configuration file with its download', async () => {
    renderPage('configs')
    const files = captureDownloads()
    const nginx = screen.getByRole('region', { name: 'nginx reverse proxy' })
    expect(within(nginx).getByLabelText('flagman.conf')).toHaveTextContent('location /api/ws')
    await userEvent.click(within(nginx).getByRole('button', { name: 'Download flagman.conf' }))
    expect(files.map((file) => file.name)).toEqual(['flagman.conf'])
    for (const name of ['Settings file', 'systemd unit', 'Docker Compose']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument()
    }
  })
})
