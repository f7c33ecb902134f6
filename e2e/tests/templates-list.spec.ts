import { appRoutes, keyRoutes, repositoryRoutes, templateRoutes } from '@flagman/contract'
import { expect, newProject, signIn, test, uniqueId } from '../support/fixtures.js'

test('searches and pages a long template list, and keeps it on reload', async ({
  page,
  adminApi,
}) => {
  await adminApi.call(appRoutes.setActive, { params: { app_id: 'bash' }, body: { active: true } })
  const project = await newProject(adminApi, `Templates ${uniqueId()}`)
  const params = { project_id: project.id }
  const keys = await adminApi.call(keyRoutes.list, { params })
  const key = keys?.find((k) => k.type === 'none')
  if (!key) throw new Error('the project has no key of type none')
  const repository = await adminApi.call(repositoryRoutes.create, {
    params,
    body: {
      name: 'scripts',
      git_url: '/tmp',
      git_branch: '',
      ssh_key_id: key.id,
      project_id: project.id,
    },
  })
  for (let i = 1; i <= 60; i += 1) {
    await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: `job ${String(i).padStart(3, '0')}${i % 10 === 0 ? ' nightly' : ''}`,
        app: 'bash',
        playbook: 'run.sh',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
  }

  await signIn(page)
  await page.goto(`/project/${project.id}/templates`)
  await expect(page.getByRole('link', { name: 'job 001', exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'job 051', exact: true })).toHaveCount(0)
  await expect(page.getByText('1–50', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByRole('link', { name: 'job 051', exact: true })).toBeVisible()
  await expect(page).toHaveURL(/page=2/)

  await page.getByRole('searchbox', { name: 'Search templates' }).fill('NIGHTLY')
  await expect(page.getByRole('link', { name: 'job 010 nightly' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'job 001', exact: true })).toHaveCount(0)
  await expect(page).toHaveURL(/search=NIGHTLY/)
  await expect(page).not.toHaveURL(/page=/)

  await page.reload()
  await expect(page.getByRole('searchbox', { name: 'Search templates' })).toHaveValue('NIGHTLY')
  await expect(page.getByRole('link', { name: /nightly/ })).toHaveCount(6)

  await page.getByRole('searchbox', { name: 'Search templates' }).fill('zzz')
  await expect(page.getByText('No templates match')).toBeVisible()
})
