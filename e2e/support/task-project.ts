import {
  type ApiClient,
  appRoutes,
  keyRoutes,
  type Project,
  repositoryRoutes,
  taskRoutes,
  templateRoutes,
} from '@flagman/contract'
import type { RouteBody } from '@flagman/contract'
import { newProject, uniqueId } from './fixtures.js'

type TemplateBody = RouteBody<typeof templateRoutes.create>

/** A project whose Bash templates run scripts of a local git repository. */
export interface TaskProject {
  project: Project
  /** The repository of `repoPath`. */
  repositoryId: number
  /** Creates a Bash template named after its script (`long.sh` → `long`); answers its id. */
  template: (playbook: string, extra?: Partial<TemplateBody>) => Promise<number>
  /** Starts a task of the template; answers its id. */
  run: (templateId: number) => Promise<number>
}

/**
 * Turns the Bash app on, creates a project (its name starts with `name`) with a repository
 * of `repoPath` reached with the project's key of type none.
 */
export async function taskProject(
  api: ApiClient,
  repoPath: string,
  name = 'Tasks',
): Promise<TaskProject> {
  await api.call(appRoutes.setActive, { params: { app_id: 'bash' }, body: { active: true } })
  const project = await newProject(api, `${name} ${uniqueId()}`)
  const params = { project_id: project.id }
  const keys = await api.call(keyRoutes.list, { params })
  let keyId = keys?.find((k) => k.type === 'none')?.id
  if (keyId === undefined) {
    keyId = (
      await api.call(keyRoutes.create, {
        params,
        body: { name: 'none', type: 'none', project_id: project.id },
      })
    ).id
  }
  const repository = await api.call(repositoryRoutes.create, {
    params,
    body: {
      name: 'scripts',
      git_url: repoPath,
      git_branch: '',
      ssh_key_id: keyId,
      project_id: project.id,
    },
  })
  return {
    project,
    repositoryId: repository.id,
    template: async (playbook, extra = {}) =>
      (
        await api.call(templateRoutes.create, {
          params,
          body: {
            name: playbook.replace('.sh', ''),
            app: 'bash',
            playbook,
            repository_id: repository.id,
            project_id: project.id,
            ...extra,
          },
        })
      ).id,
    run: async (templateId) =>
      (await api.call(taskRoutes.create, { params, body: { template_id: templateId } })).id,
  }
}
