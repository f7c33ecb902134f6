import type { AccessKey, RestoredProject } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { RestoreProjectPanel } from './restore-project-panel'

const restored = (report: RestoredProject['restore_report']): RestoredProject => ({
  id: 9,
  name: 'Copy',
  created: '2026-11-20T10:00:00Z',
  alert: false,
  alert_chat: null,
  max_parallel_tasks: 0,
  task_retention_days: null,
  max_tasks_per_template: null,
  type: '',
  restore_report: report,
})

const emptyKey: AccessKey = {
  id: 4,
  name: 'deploy',
  type: 'ssh',
  project_id: 9,
  login_password: { login: '', password: '' },
  ssh: { login: '', passphrase: '', private_key: '' },
  string: '',
  override_secret: false,
  empty: true,
}

async function restoreFile() {
  const onRestored = vi.fn()
  renderWithProviders(<RestoreProjectPanel onRestored={onRestored} />)
  const file = new File([JSON.stringify({ meta: { name: 'Web' }, keys: [] })], 'web.json', {
    type: 'application/json',
  })
  await userEvent.upload(screen.getByLabelText('Choose backup file'), file)
  await userEvent.click(screen.getByRole('button', { name: 'Restore' }))
  return screen.findByRole('dialog', { name: 'Restore project' })
}

describe('RestoreProjectPanel', () => {
  it('lists what the server could not map, with the empty keys notice', async () => {
    mockFetch({
      'POST /api/projects/restore': {
        body: restored([
          { path: 'secret_storages', reason: 'secret storages are not supported' },
          { path: 'schedules[Launch day]', reason: 'one-off schedules are not supported' },
        ]),
      },
      'GET /api/project/9/keys': { body: [emptyKey] },
    })
    const dialog = await restoreFile()
    expect(
      within(dialog).getByText('1 empty keys added. Please update them before running tasks.'),
    ).toBeInTheDocument()
    const list = within(dialog).getByRole('list', {
      name: '2 items of the backup could not be mapped; they were left out or changed as listed:',
    })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      'secret_storagessecret storages are not supported',
      'schedules[Launch day]one-off schedules are not supported',
    ])
  })

  it('shows no list when everything was mapped', async () => {
    mockFetch({
      'POST /api/projects/restore': { body: restored([]) },
      'GET /api/project/9/keys': { body: [] },
    })
    const dialog = await restoreFile()
    expect(within(dialog).getByText('Project restored successfully.')).toBeInTheDocument()
    expect(within(dialog).queryByRole('list')).not.toBeInTheDocument()
  })
})
