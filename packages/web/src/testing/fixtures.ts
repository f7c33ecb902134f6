import type { Task, TaskWithTemplate, Template } from '@flagman/contract'

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
    runner_tag: null,
    tasks: 0,
    last_task: null,
    ...overrides,
  }
}

/** A finished task 12 of template 3 in project 4; tests override what they look at. */
export function taskFixture(overrides: Partial<Task> = {}): Task {
  return {
    id: 12,
    template_id: 3,
    project_id: 4,
    status: 'success',
    debug: false,
    dry_run: false,
    diff: false,
    playbook: '',
    environment: '{}',
    secret: '{}',
    limit: '',
    arguments: null,
    git_branch: null,
    message: '',
    user_id: 1,
    integration_id: null,
    schedule_id: null,
    created: '2026-01-01T00:00:00Z',
    start: '2026-01-01T00:00:00Z',
    end: '2026-01-01T00:01:05Z',
    commit_hash: null,
    commit_message: '',
    build_task_id: null,
    version: null,
    inventory_id: null,
    params: null,
    ...overrides,
  }
}

/** A task as project task lists show it, with its template's fields. */
export function listedTaskFixture(overrides: Partial<TaskWithTemplate> = {}): TaskWithTemplate {
  return {
    ...taskFixture(),
    tpl_playbook: 'deploy.sh',
    tpl_alias: 'Deploy site',
    tpl_type: '',
    tpl_app: 'bash',
    user_name: 'Ann',
    build_task: null,
    ...overrides,
  }
}
