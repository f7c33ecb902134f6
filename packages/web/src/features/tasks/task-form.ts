import type { CreateTaskBody, SurveyVar, Template } from '@flagman/contract'

/** Commit messages are cut to this length in the task form. */
export const COMMIT_MESSAGE_LENGTH = 50

export const ANSIBLE_FLAGS = ['debug', 'dry_run', 'diff'] as const
export const TERRAFORM_FLAGS = [
  'plan',
  'auto_approve',
  'destroy',
  'reconfigure',
  'upgrade',
] as const

export function paramFlags(app: string): readonly string[] {
  if (app === 'ansible') return ANSIBLE_FLAGS
  if (app === 'terraform' || app === 'tofu') return TERRAFORM_FLAGS
  return []
}

/** Ansible's host and tag lists, typed as comma-separated text. */
export const ANSIBLE_LISTS = ['limit', 'tags', 'skip_tags'] as const
export type AnsibleList = (typeof ANSIBLE_LISTS)[number]

/** The template lets a task pick another branch of its repository. */
export function allowsBranchOverride(template: Pick<Template, 'task_params'>): boolean {
  return template.task_params?.allow_override_branch_in_task === true
}

/** Splits comma-separated text into trimmed, non-empty values. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '')
}

function joinList(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : ''
}

export interface TaskFormValues {
  message: string
  /** Git branch override; empty keeps the template's branch. */
  branch: string
  lists: Record<AnsibleList, string>
  survey: Record<string, string>
  args: string[]
  params: Record<string, boolean>
  buildTaskId: number | null
}

export type TaskFormErrors = {
  survey?: Record<string, string>
  args?: Record<number, string>
  buildTaskId?: string
}

export interface TaskFormMessages {
  required: (title: string) => string
  mustBeInteger: string
  argRequired: string
  buildRequired: string
}

export function templateArgs(template: Pick<Template, 'arguments'>): string[] {
  if (!template.arguments) return []
  try {
    const parsed: unknown = JSON.parse(template.arguments)
    return Array.isArray(parsed) ? parsed.map(String) : []
  } catch {
    return []
  }
}

export function initialTaskForm(template: Template): TaskFormValues {
  const params: Record<string, boolean> = {}
  for (const flag of paramFlags(template.app)) {
    params[flag] = template.task_params?.[flag] === true
  }
  return {
    message: '',
    branch: '',
    lists: {
      limit: joinList(template.task_params?.limit),
      tags: joinList(template.task_params?.tags),
      skip_tags: joinList(template.task_params?.skip_tags),
    },
    survey: Object.fromEntries((template.survey_vars ?? []).map((v) => [v.name, ''])),
    args: template.allow_override_args_in_task ? templateArgs(template) : [],
    params,
    buildTaskId: null,
  }
}

export function validateTaskForm(
  template: Template,
  values: TaskFormValues,
  messages: TaskFormMessages,
): TaskFormErrors | null {
  const errors: TaskFormErrors = {}
  const survey: Record<string, string> = {}
  for (const variable of template.survey_vars ?? []) {
    const value = values.survey[variable.name] ?? ''
    if (variable.required && value.trim() === '')
      survey[variable.name] = messages.required(variable.title)
    else if (variable.type === 'int' && value !== '' && !/^\d+$/.test(value)) {
      survey[variable.name] = messages.mustBeInteger
    }
  }
  if (Object.keys(survey).length > 0) errors.survey = survey
  if (template.allow_override_args_in_task) {
    const args: Record<number, string> = {}
    values.args.forEach((arg, index) => {
      if (arg.trim() === '') args[index] = messages.argRequired
    })
    if (Object.keys(args).length > 0) errors.args = args
  }
  if (template.type === 'deploy' && values.buildTaskId === null) {
    errors.buildTaskId = messages.buildRequired
  }
  return Object.keys(errors).length > 0 ? errors : null
}

function surveyValue(variable: SurveyVar, value: string): string | number {
  return variable.type === 'int' ? Number(value) : value
}

export function taskBody(template: Template, values: TaskFormValues): CreateTaskBody {
  const environment: Record<string, string | number> = {}
  const secret: Record<string, string | number> = {}
  for (const variable of template.survey_vars ?? []) {
    const value = values.survey[variable.name] ?? ''
    if (value === '') continue
    const target = variable.type === 'secret' ? secret : environment
    target[variable.name] = surveyValue(variable, value)
  }
  const body: CreateTaskBody = { template_id: template.id }
  if (values.message.trim() !== '') body.message = values.message.trim()
  if (Object.keys(environment).length > 0) body.environment = JSON.stringify(environment)
  if (Object.keys(secret).length > 0) body.secret = JSON.stringify(secret)
  if (template.allow_override_args_in_task) {
    body.arguments = JSON.stringify(values.args.map((arg) => arg.trim()))
  }
  if (paramFlags(template.app).length > 0) {
    const params: Record<string, unknown> = { ...values.params }
    if (template.app === 'ansible') {
      for (const list of ANSIBLE_LISTS) {
        const items = splitList(values.lists[list])
        if (items.length > 0) params[list] = items
      }
    }
    body.params = params
  }
  if (allowsBranchOverride(template) && values.branch.trim() !== '') {
    body.git_branch = values.branch.trim()
  }
  if (template.type === 'deploy' && values.buildTaskId !== null) {
    body.build_task_id = values.buildTaskId
  }
  return body
}
