import { readFileSync } from 'node:fs'
import { getProjectBackup, keyRoutes, listProjects, templateRoutes } from '@flagman/contract'
import {
  dialog,
  expect,
  expectAccessible,
  newProject,
  projectPicker,
  saveScreenshot,
  signIn,
  test,
  uniqueId,
} from '../support/fixtures.js'

test.describe('restore a project from a backup', () => {
  test('an admin restores an exported project and is told about empty keys', async ({
    page,
    adminApi,
  }) => {
    const source = await newProject(adminApi, `Source ${uniqueId()}`)
    await adminApi.call(keyRoutes.create, {
      params: { project_id: source.id },
      body: {
        name: 'deploy password',
        type: 'login_password',
        project_id: source.id,
        login_password: { login: 'deploy', password: 'restore-secret-1' },
      },
    })
    const backup = await adminApi.call(getProjectBackup, { params: { project_id: source.id } })
    const restoredName = `Restored ${uniqueId()}`

    await signIn(page)
    await page.goto(`/project/${source.id}/history`)
    await projectPicker(page).click()
    await page.getByRole('menuitem', { name: 'Restore project' }).click()
    await expect(page).toHaveURL(/\/project\/restore$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Restore project' })).toBeVisible()

    // Nothing chosen yet: both problems are shown and nothing is sent.
    await page.getByRole('button', { name: 'Restore' }).click()
    await expect(page.getByText('Choose a backup file', { exact: true })).toBeVisible()
    await expect(page.getByText('Project name is required')).toBeVisible()

    await page.getByLabel('Choose backup file').setInputFiles({
      name: 'not-json.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{broken'),
    })
    await expect(page.getByText(/The file is not valid JSON/)).toBeVisible()

    await page.getByLabel('Choose backup file').setInputFiles({
      name: 'backup.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(backup)),
    })
    const name = page.getByRole('textbox', { name: 'Project name' })
    await expect(name).toHaveValue(source.name)
    await name.fill(restoredName)
    await expectAccessible(page)
    await saveScreenshot(page, 'restore-project')
    await page.getByRole('button', { name: 'Restore' }).click()

    const result = dialog(page, 'Restore project')
    await expect(result.getByText('Project restored successfully.')).toBeVisible()
    await expect(
      result.getByText('1 empty keys added. Please update them before running tasks.'),
    ).toBeVisible()
    await result.getByRole('button', { name: 'Open project' }).click()
    await expect(page.getByRole('heading', { level: 1, name: restoredName })).toBeVisible()

    const restored = (await adminApi.call(listProjects)).find((p) => p.name === restoredName)
    expect(restored).toBeDefined()
    const keys = await adminApi.call(keyRoutes.list, { params: { project_id: restored!.id } })
    expect(keys.find((k) => k.name === 'deploy password')?.empty).toBe(true)
  })

  test('a backup of the compatible system restores, and what could not be mapped is listed', async ({
    page,
    adminApi,
  }) => {
    const file = new URL(
      '../../packages/server/test/fixtures/backups/compatible-newer.json',
      import.meta.url,
    )
    const restoredName = `Compatible ${uniqueId()}`
    await signIn(page)
    await page.goto('/project/restore')
    await page.getByLabel('Choose backup file').setInputFiles({
      name: 'semaphore-backup.json',
      mimeType: 'application/json',
      buffer: readFileSync(file),
    })
    await page.getByRole('textbox', { name: 'Project name' }).fill(restoredName)
    await page.getByRole('button', { name: 'Restore' }).click()

    const result = dialog(page, 'Restore project')
    await expect(result.getByText('Project restored successfully.')).toBeVisible()
    await expect(result.getByText(/14 items of the backup could not be mapped/)).toBeVisible()
    await expect(result.getByText('secret_storages', { exact: true })).toBeVisible()
    await expect(result.getByText(/one-off schedules \(run_at\) are not supported/)).toBeVisible()
    await expectAccessible(page)
    await result.getByRole('button', { name: 'Open project' }).click()
    await expect(page.getByRole('heading', { level: 1, name: restoredName })).toBeVisible()

    const restored = (await adminApi.call(listProjects)).find((p) => p.name === restoredName)
    const templates = await adminApi.call(templateRoutes.list, {
      params: { project_id: restored!.id },
    })
    expect(templates.map((t) => t.name)).toContain('Deploy edge')
  })
})
