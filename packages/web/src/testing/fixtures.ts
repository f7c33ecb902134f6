import type { Template } from '@flagman/contract'

/** A bash template of project 3 with every field set; tests override what they look at. */
export function templateFixture(overrides: Partial<Template> = {}): Template {
  return {
    id: 20,
    project_id: 3,
    name: 'deploy',
    description: null,
    type: '',
    app: 'bash',
    playbook: 'deploy.sh',
    arguments: null,
    allow_override_args_in_task: false,
    inventory_id: null,
    repository_id: 7,
    environment_id: null,
    view_id: null,
    build_template_id: null,
    start_version: null,
    autorun: false,
    git_branch: null,
    survey_vars: null,
    vaults: [],
    suppress_success_alerts: false,
    task_params: null,
    tasks: 0,
    last_task: null,
    ...overrides,
  }
}
