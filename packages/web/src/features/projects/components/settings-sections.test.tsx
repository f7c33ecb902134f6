import type { Project } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { BackupSection } from './backup-section'
import { TestAlertSection } from './test-alert-section'

const project: Project = {
  id: 3,
  name: 'Web servers',
  created: '2026-11-20T10:00:00Z',
  alert: true,
  alert_chat: null,
  max_parallel_tasks: 0,
  task_retention_days: null,
  max_tasks_per_template: null,
  type: '',
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

describe('BackupSection', () => {
  it('downloads the backup as a dated file and says so', async () => {
    const backup = { meta: { name: 'Web servers' }, templates: [] }
    mockFetch({ 'GET /api/project/3/backup': { body: backup } })
    const files = captureDownloads()
    renderWithProviders(<BackupSection project={project} />)
    await userEvent.click(screen.getByRole('button', { name: 'Export backup' }))
    expect(await screen.findByText('Project exported.')).toBeInTheDocument()
    expect(files).toHaveLength(1)
    expect(files[0]?.name).toMatch(/^project-Web-servers-\d{4}-\d{2}-\d{2}\.json$/)
    expect(JSON.parse(await files[0]!.blob.text())).toEqual(backup)
  })

  it('shows a failure in an error message and saves nothing', async () => {
    mockFetch({ 'GET /api/project/3/backup': { status: 403, body: { error: 'Forbidden' } } })
    const files = captureDownloads()
    renderWithProviders(<BackupSection project={project} />)
    await userEvent.click(screen.getByRole('button', { name: 'Export backup' }))
    expect(await screen.findByText('Forbidden')).toBeInTheDocument()
    expect(files).toHaveLength(0)
  })
})

describe('TestAlertSection', () => {
  it('says when no channel is configured on the server', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/alerts/test': { body: { channels: [] } },
    })
    renderWithProviders(<TestAlertSection projectId={3} canUpdate />)
    await userEvent.click(screen.getByRole('button', { name: 'Send test alert' }))
    const results = await screen.findByRole('dialog', { name: 'Test alert' })
    expect(
      await within(results).findByText('No alert channel is configured on the server'),
    ).toBeInTheDocument()
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it("lists each channel's result", async () => {
    mockFetch({
      'POST /api/project/3/alerts/test': {
        body: {
          channels: [
            { channel: 'email', ok: true, message: 'Sent successfully email alert' },
            {
              channel: 'teams',
              ok: false,
              message: "Can't send Microsoft Teams alert. Response code: 500",
            },
          ],
        },
      },
    })
    renderWithProviders(<TestAlertSection projectId={3} canUpdate />)
    await userEvent.click(screen.getByRole('button', { name: 'Send test alert' }))
    const list = await screen.findByRole('list', { name: 'Test alert' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      // The icon's title, the channel, its answer.
      'SentEmailSent successfully email alert',
      "Not sentMicrosoft TeamsCan't send Microsoft Teams alert. Response code: 500",
    ])
    expect(within(items[0]!).getByTitle('Sent')).toBeInTheDocument()
    expect(within(items[1]!).getByTitle('Not sent')).toBeInTheDocument()
  })

  it('is disabled for members who may not update the project', () => {
    mockFetch({})
    renderWithProviders(<TestAlertSection projectId={3} canUpdate={false} />)
    expect(screen.getByRole('button', { name: 'Send test alert' })).toBeDisabled()
  })
})
