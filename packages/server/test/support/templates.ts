import { App, Template } from '@flagman/contract'
import { expect } from 'vitest'
import { z } from 'zod'
import { unique, type World } from './fixtures.js'
import { expectBody, expectNoContent, type HttpResult } from './http.js'
import type { ProjectResources } from './resources.js'

/** The apps every server knows, in the order the apps list shows them. */
export const DEFAULT_APPS = [
  'ansible',
  'terraform',
  'tofu',
  'pulumi',
  'bash',
  'powershell',
  'python',
] as const

/** Sets apps (in)active as the administrator, so tests never depend on what is installed. */
export async function setAppsActive(
  world: World,
  ids: readonly string[],
  active: boolean,
): Promise<void> {
  const admin = await world.admin()
  for (const id of ids) {
    expectNoContent(
      await world.request('POST', `/api/apps/${id}/active`, { as: admin.as, json: { active } }),
    )
  }
}

/** All apps as the admin sees them. */
export async function listApps(world: World): Promise<App[]> {
  const admin = await world.admin()
  return expectBody(await world.request('GET', '/api/apps', { as: admin.as }), 200, z.array(App))
}

/** What a template of each app needs besides its own fields. */
export interface TemplateDefaults {
  repository_id: number
  /** A host inventory, used for Ansible templates. */
  inventory_id: number
}

type Fields = Record<string, unknown>

/** Template bodies and calls of one project, as the person behind `p`. */
export class ProjectTemplates {
  constructor(
    readonly p: ProjectResources,
    readonly defaults: TemplateDefaults,
  ) {}

  /** A valid body for the app: an Ansible playbook with an inventory, or a script. */
  body(fields: Fields = {}): Fields {
    const app = typeof fields.app === 'string' ? fields.app : 'ansible'
    return {
      name: unique('tpl'),
      project_id: this.p.projectId,
      app,
      playbook: app === 'ansible' ? 'site.yml' : app === 'bash' ? 'run.sh' : 'main',
      repository_id: this.defaults.repository_id,
      ...(app === 'ansible' ? { inventory_id: this.defaults.inventory_id } : {}),
      ...fields,
    }
  }

  post(fields: Fields = {}): Promise<HttpResult> {
    return this.p.request('POST', '/templates', this.body(fields))
  }

  async create(fields: Fields = {}): Promise<Template> {
    return expectBody(await this.post(fields), 201, Template)
  }

  get(id: number): Promise<Template> {
    return this.p.get(`/templates/${id}`, Template)
  }

  list(query = ''): Promise<Template[]> {
    return this.p.list(`/templates${query}`, Template)
  }

  async names(query = ''): Promise<string[]> {
    return (await this.list(query)).map((t) => t.name)
  }

  put(template: Template, fields: Fields = {}): Promise<HttpResult> {
    return this.p.request('PUT', `/templates/${template.id}`, { ...template, ...fields })
  }

  /** Saves the template with the changed fields and reads it back. */
  async update(template: Template, fields: Fields = {}): Promise<Template> {
    expectNoContent(await this.put(template, fields))
    const saved = await this.get(template.id)
    expect(saved.id).toBe(template.id)
    return saved
  }
}
