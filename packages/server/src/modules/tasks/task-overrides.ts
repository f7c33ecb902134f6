import { BRANCH_OVERRIDE_PARAM, Permission, type CreateTaskBody } from '@flagman/contract'
import type { TemplateTable } from '@flagman/db'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { AppError, BadRequestError, ForbiddenError } from '../../platform/errors.js'

/*
 * Who may change what a task runs.
 *
 * A template is set up by the people who manage the project's resources; whoever may only
 * run tasks must not be able to make a task run something the template does not offer. So
 * everything a task can change beyond the template is checked here, against the template and
 * against whether the requester could have edited the template themselves.
 */

type CreateInput = z.output<typeof CreateTaskBody>
export type TemplateRow = Selectable<TemplateTable>

/** A person asking for a task, with their permission bits in the task's project. */
export interface TaskRequester {
  actor: Actor
  permissions: number
}

/**
 * Whether the requester could edit the template: an administrator, a member whose role
 * manages the project's resources, or the server itself (null: a schedule, which such a
 * member set up).
 */
export function canEditTemplates(requester: TaskRequester | null): boolean {
  return (
    requester === null ||
    requester.actor.admin ||
    (requester.permissions & Permission.manageProjectResources) !== 0
  )
}

const MANAGERS = "only users who can manage the project's resources"

export interface SurveyVarDef {
  name: string
  type?: string
  required?: boolean
  values?: Array<{ name: string; value: string }>
}

/** The template's survey variables; unreadable text counts as none. */
export function surveyVars(text: string | null): SurveyVarDef[] {
  if (!text) return []
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value)
      ? value.filter(
          (v): v is SurveyVarDef =>
            typeof v === 'object' && v !== null && typeof (v as SurveyVarDef).name === 'string',
        )
      : []
  } catch {
    return []
  }
}

function templateParams(template: TemplateRow): Record<string, unknown> {
  if (!template.task_params) return {}
  try {
    const value = JSON.parse(template.task_params) as unknown
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function appOf(template: TemplateRow): string {
  return template.app || 'ansible'
}

/** The template lets tasks override its arguments, playbook, variables and branch. */
function allowsOverrides(template: TemplateRow): boolean {
  return Boolean(template.allow_override_args_in_task)
}

/** The template lets tasks pick another branch or commit of its repository. */
function allowsBranch(template: TemplateRow): boolean {
  return allowsOverrides(template) || templateParams(template)[BRANCH_OVERRIDE_PARAM] === true
}

/**
 * A playbook other than the template's needs a template that allows overrides and a
 * requester who could edit the template. (Its form is checked for everyone before this.)
 */
export function checkPlaybookOverride(
  template: TemplateRow,
  trusted: boolean,
  playbook: string | null | undefined,
): void {
  if (!playbook || playbook === template.playbook) return
  if (!allowsOverrides(template)) {
    throw new BadRequestError('This template does not allow overriding the playbook')
  }
  if (!trusted) {
    throw new ForbiddenError(
      "Only users who can manage the project's resources may override the playbook",
    )
  }
}

/**
 * Another branch or a commit can only be chosen by a requester who could edit the
 * template, or when the template allows it (overrides, or the branch override switch of
 * its task parameters).
 */
export function checkBranchOverride(
  template: TemplateRow,
  trusted: boolean,
  input: Pick<CreateInput, 'git_branch' | 'commit_hash'>,
): void {
  if (trusted || allowsBranch(template)) return
  if (input.git_branch && input.git_branch !== (template.git_branch ?? '')) {
    throw new ForbiddenError(
      `This template does not allow choosing the branch; ${MANAGERS} may run it from another branch`,
    )
  }
  if (input.commit_hash) {
    throw new ForbiddenError(
      `This template does not allow choosing the commit; ${MANAGERS} may run another commit`,
    )
  }
}

// ---------------------------------------------------------------------------------------
// Variables

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Privilege escalation settings: the become family and its per-method variables. */
const BECOME =
  /^ansible_(become|sudo|su|pbrun|pfexec|doas|dzdo|ksu|runas|machinectl|pmrun|sesu)(_|$)/i
/** Settings that choose a program or pass options to one: the connection and its commands. */
const CODE_RUNNING =
  /^ansible_(connection|(\w+_)?(interpreter|executable|exe|args|flags|cmd|command|config))$/i
/** Ansible's own variable names; the task runner may only send declared survey variables. */
const ANSIBLE = /^ansible_/i

/** Set by the server for every task. */
export const SERVER_VARIABLE = 'semaphore_vars'

/** Jinja markup, which Ansible evaluates (lookups run on the server) when a value is used. */
const TEMPLATE_MARKUP = /\{\{|\{%|\{#/

function containsMarkup(value: unknown): boolean {
  if (typeof value === 'string') return TEMPLATE_MARKUP.test(value)
  if (Array.isArray(value)) return value.some(containsMarkup)
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => TEMPLATE_MARKUP.test(k) || containsMarkup(v))
  }
  return false
}

/**
 * Why a task runner may not set a variable of this name at all (even a declared survey
 * variable, even when the template allows overrides), or null.
 */
export function forbiddenVariableProblem(name: string): string | null {
  if (BECOME.test(name) || CODE_RUNNING.test(name)) {
    return `Variable ${name} is not allowed: it changes how or as whom Ansible runs code, so ${MANAGERS} may set it`
  }
  return null
}

/**
 * Checks variables whose values come from outside Flagman (what a webhook delivery carries):
 * never Ansible's connection, interpreter, executable, argument or become settings, and for
 * Ansible templates no template markup, which Ansible would evaluate on the server.
 */
export function checkExternalVariables(app: string, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const problem = forbiddenVariableProblem(name)
    if (problem) throw new BadRequestError(problem)
    if ((app || 'ansible') === 'ansible' && containsMarkup(value)) {
      throw new BadRequestError(
        `Variable ${name} can not contain template markup ({{ }}, {% %} or {# #}), which Ansible would evaluate`,
      )
    }
  }
}

const empty = (v: unknown): boolean => v === undefined || v === null || v === ''

function checkDeclaredValue(def: SurveyVarDef, where: 'environment' | 'secret', value: unknown) {
  const name = def.name
  if (def.type === 'secret') {
    if (where !== 'secret') {
      throw new BadRequestError(
        `Survey variable ${name} is a secret and must be sent in secret, not in environment`,
      )
    }
  } else if (where === 'secret') {
    throw new BadRequestError(
      `Survey variable ${name} is not a secret and must be sent in environment, not in secret`,
    )
  }
  if (empty(value)) return
  switch (def.type) {
    case 'int':
      if (
        !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) &&
        !(typeof value === 'string' && /^\d+$/.test(value))
      ) {
        throw new BadRequestError(`Survey variable ${name} must be an integer`)
      }
      return
    case 'enum': {
      const allowed = (def.values ?? []).map((x) => x.value)
      if (typeof value !== 'string' || !allowed.includes(value)) {
        throw new BadRequestError(`Survey variable ${name} must be one of: ${allowed.join(', ')}`)
      }
      return
    }
    default:
      if (typeof value !== 'string') {
        throw new BadRequestError(`Survey variable ${name} must be text`)
      }
  }
}

/**
 * Checks a task's variables (`environment`) and secret survey values (`secret`).
 *
 * - Nobody may send `semaphore_vars`: the server sets it.
 * - Requesters who could edit the template may send any other variable.
 * - Others may send the template's survey variables, each with a value of its type (text;
 *   an integer; one of the enumeration's values; a secret, as text in `secret` only). Other
 *   names and nested values only when the template allows overrides, and then only names of
 *   letters, digits and underscores. Names starting with `ansible_` only when declared as
 *   survey variables, and never Ansible's connection, interpreter, executable, argument and
 *   privilege escalation settings (see `forbiddenVariableProblem`). For Ansible templates,
 *   values can not hold Jinja markup.
 */
export function checkTaskVariables(
  template: TemplateRow,
  trusted: boolean,
  environment: Record<string, unknown>,
  secret: Record<string, unknown>,
): void {
  for (const values of [environment, secret]) {
    if (Object.hasOwn(values, SERVER_VARIABLE)) {
      throw new BadRequestError(
        `Variable ${SERVER_VARIABLE} is set by the server and can not be sent with a task`,
      )
    }
  }
  if (trusted) return
  const declared = new Map(surveyVars(template.survey_vars).map((v) => [v.name, v]))
  const overrides = allowsOverrides(template)
  const ansible = appOf(template) === 'ansible'
  const groups: Array<['environment' | 'secret', Record<string, unknown>]> = [
    ['environment', environment],
    ['secret', secret],
  ]
  for (const [where, values] of groups) {
    for (const [name, value] of Object.entries(values)) {
      const def = declared.get(name)
      const problem = forbiddenVariableProblem(name)
      if (problem) throw new BadRequestError(problem)
      if (def) {
        checkDeclaredValue(def, where, value)
      } else {
        if (!overrides) {
          throw new BadRequestError(
            `Variable ${JSON.stringify(name)} is not a survey variable of this template, which does not allow other variables`,
          )
        }
        if (!IDENTIFIER.test(name)) {
          throw new BadRequestError(
            `Variable name ${JSON.stringify(name)} must consist of letters, digits and underscores and not start with a digit`,
          )
        }
        if (ANSIBLE.test(name)) {
          throw new BadRequestError(
            `Variable ${name} is not allowed: names starting with ansible_ are Ansible's own settings, and only the template's survey variables may use them`,
          )
        }
      }
      // An enumeration's values are the template's own.
      if (ansible && def?.type !== 'enum' && containsMarkup(value)) {
        throw new BadRequestError(
          `Variable ${name} can not contain template markup ({{ }}, {% %} or {# #}), which Ansible would evaluate`,
        )
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Arguments

/** ansible-playbook options a task runner may pass, without a value. */
const ANSIBLE_FLAGS = new Set([
  '-C',
  '--check',
  '-D',
  '--diff',
  '--verbose',
  '--list-hosts',
  '--list-tasks',
  '--list-tags',
  '--syntax-check',
  '--flush-cache',
  '--force-handlers',
])
/** ansible-playbook options a task runner may pass, with a value (short form → long form). */
const ANSIBLE_VALUED = new Map([
  ['-l', '--limit'],
  ['--limit', '--limit'],
  ['-t', '--tags'],
  ['--tags', '--tags'],
  ['--skip-tags', '--skip-tags'],
  ['-f', '--forks'],
  ['--forks', '--forks'],
  ['-T', '--timeout'],
  ['--timeout', '--timeout'],
  ['--start-at-task', '--start-at-task'],
  ['-e', '--extra-vars'],
  ['--extra-vars', '--extra-vars'],
])
const ANSIBLE_ALLOWED =
  '-v, --check, --diff, --limit, --tags, --skip-tags, --forks, --timeout, --start-at-task, ' +
  '--list-hosts, --list-tasks, --list-tags, --syntax-check, --flush-cache, --force-handlers ' +
  'and --extra-vars with plain variables'

/** terraform/tofu plan and apply options a task runner may pass (without leading dashes). */
const TERRAFORM_FLAGS = new Set(['compact-warnings', 'no-color', 'refresh-only', 'destroy', 'json'])
const TERRAFORM_VALUED = new Set([
  'target',
  'replace',
  'var',
  'parallelism',
  'lock-timeout',
  'refresh',
  'lock',
  'input',
])
const TERRAFORM_ALLOWED =
  '-target, -replace, -var, -parallelism, -lock, -lock-timeout, -refresh, -refresh-only, ' +
  '-input, -destroy, -compact-warnings, -json and -no-color'

/** Apps whose task arguments follow the script and only reach the script. */
const SCRIPT_APPS = new Set(['bash', 'python', 'powershell'])

/** One option of a task's arguments, with the tokens it was written as. */
interface Item {
  tokens: string[]
  problem: AppError | null
}

function notAllowed(arg: string, allowed: string): AppError {
  return new ForbiddenError(
    `The argument ${arg} is not allowed: ${MANAGERS} may pass it (others may pass ${allowed})`,
  )
}

const forbidden = (message: string): AppError => new ForbiddenError(message)

/** `--extra-vars` given by a task runner: `name=value` pairs or a JSON object, checked. */
function extraVarsProblem(template: TemplateRow, value: string): AppError | null {
  const text = value.trim()
  let vars: Record<string, unknown> = {}
  if (text.startsWith('@')) {
    return forbidden(
      `Reading extra variables from a file (--extra-vars @file) is allowed to ${MANAGERS}`,
    )
  }
  if (text.startsWith('{') || text.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = null
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return new BadRequestError('--extra-vars must be name=value pairs or a JSON object')
    }
    vars = parsed as Record<string, unknown>
  } else {
    for (const pair of text.split(/\s+/).filter(Boolean)) {
      const at = pair.indexOf('=')
      const name = at > 0 ? pair.slice(0, at) : ''
      if (!IDENTIFIER.test(name)) {
        return new BadRequestError(
          `--extra-vars must be name=value pairs (names of letters, digits and underscores) or a JSON object, not ${JSON.stringify(pair)}`,
        )
      }
      vars[name] = pair.slice(at + 1)
    }
  }
  try {
    checkTaskVariables(template, false, vars, {})
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  return null
}

function ansibleItems(template: TemplateRow, args: string[]): Item[] {
  const items: Item[] = []
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string
    if (!arg.startsWith('-')) {
      items.push({
        tokens: [arg],
        problem: forbidden(
          `The argument ${JSON.stringify(arg)} would be read as another playbook; ${MANAGERS} may pass it`,
        ),
      })
      continue
    }
    if (ANSIBLE_FLAGS.has(arg) || /^-v+$/.test(arg)) {
      items.push({ tokens: [arg], problem: null })
      continue
    }
    let option: string | undefined
    let value: string | undefined
    const tokens = [arg]
    const eq = arg.indexOf('=')
    const short = /^-([ltfTe])(.+)$/.exec(arg)
    if (arg.startsWith('--') && eq > 0 && ANSIBLE_VALUED.has(arg.slice(0, eq))) {
      option = ANSIBLE_VALUED.get(arg.slice(0, eq))
      value = arg.slice(eq + 1)
    } else if (ANSIBLE_VALUED.has(arg)) {
      option = ANSIBLE_VALUED.get(arg)
      value = args[i + 1]
      if (value === undefined || value.startsWith('-')) {
        items.push({ tokens, problem: new BadRequestError(`The argument ${arg} needs a value`) })
        continue
      }
      tokens.push(value)
      i += 1
    } else if (short) {
      option = ANSIBLE_VALUED.get(`-${short[1]}`)
      value = short[2]
    }
    if (option === undefined || value === undefined) {
      items.push({ tokens, problem: notAllowed(arg, ANSIBLE_ALLOWED) })
      continue
    }
    let problem: AppError | null = null
    if (option === '--limit' && value.trim().startsWith('@')) {
      problem = forbidden(`Reading hosts from a file (--limit @file) is allowed to ${MANAGERS}`)
    } else if (option === '--extra-vars') {
      problem = extraVarsProblem(template, value)
    } else if (TEMPLATE_MARKUP.test(value)) {
      problem = new BadRequestError(
        `The argument ${arg} can not contain template markup ({{ }}, {% %} or {# #})`,
      )
    }
    items.push({ tokens, problem })
  }
  return items
}

function terraformItems(args: string[]): Item[] {
  const items: Item[] = []
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string
    const name = arg.replace(/^--?/, '')
    if (!arg.startsWith('-')) {
      items.push({
        tokens: [arg],
        problem: forbidden(
          `The argument ${JSON.stringify(arg)} would be read as a plan file; ${MANAGERS} may pass it`,
        ),
      })
      continue
    }
    const eq = name.indexOf('=')
    const key = eq > 0 ? name.slice(0, eq) : name
    if (eq < 0 && TERRAFORM_FLAGS.has(key)) {
      items.push({ tokens: [arg], problem: null })
    } else if (TERRAFORM_VALUED.has(key) && eq > 0) {
      items.push({ tokens: [arg], problem: null })
    } else if (TERRAFORM_VALUED.has(key)) {
      const value = args[i + 1]
      if (value === undefined || value.startsWith('-')) {
        items.push({
          tokens: [arg],
          problem: new BadRequestError(`The argument ${arg} needs a value`),
        })
      } else {
        items.push({ tokens: [arg, value], problem: null })
        i += 1
      }
    } else {
      items.push({ tokens: [arg], problem: notAllowed(arg, TERRAFORM_ALLOWED) })
    }
  }
  return items
}

function hasSequence(list: readonly string[], part: readonly string[]): boolean {
  for (let i = 0; i + part.length <= list.length; i += 1) {
    if (part.every((token, j) => list[i + j] === token)) return true
  }
  return false
}

function stringList(text: string | null): string[] {
  if (!text) return []
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/**
 * Checks a task's arguments from a requester who can not edit the template (the template
 * allowing argument overrides is checked before):
 *
 * - Ansible: only the options of `ANSIBLE_ALLOWED`, written separately (`-v`, `--limit web`,
 *   `--limit=web`, `-lweb`); no further playbooks, no host list read from a file, and
 *   `--extra-vars` only as `name=value` pairs or a JSON object that pass the variable rules.
 * - Terraform and OpenTofu: only the options of `TERRAFORM_ALLOWED`, no plan file.
 * - bash, python and powershell: anything, since the arguments follow the script and only
 *   reach it. Other apps, and templates without a script: no argument starting with `-`.
 *
 * An option written exactly as in the template's own arguments is accepted too (the console
 * offers the template's arguments as the starting point of the task's).
 */
export function checkTaskArguments(template: TemplateRow, trusted: boolean, args: string[]) {
  if (trusted) return
  const app = appOf(template)
  let items: Item[]
  if (app === 'ansible') {
    items = ansibleItems(template, args)
  } else if (app === 'terraform' || app === 'tofu') {
    items = terraformItems(args)
  } else if (SCRIPT_APPS.has(app) && template.playbook !== '') {
    items = []
  } else {
    items = args.map((arg) => ({
      tokens: [arg],
      problem: arg.startsWith('-')
        ? forbidden(
            `The argument ${arg} would be read as an option of ${app}; ${MANAGERS} may pass it`,
          )
        : null,
    }))
  }
  const own = stringList(template.arguments)
  for (const item of items) {
    if (item.problem !== null && !hasSequence(own, item.tokens)) throw item.problem
  }
}

/** A host limit read from a file (`@file`) is left to requesters who could edit the template. */
export function checkTaskLimit(
  template: TemplateRow,
  trusted: boolean,
  limits: readonly unknown[],
): void {
  if (trusted || appOf(template) !== 'ansible') return
  for (const limit of limits) {
    if (typeof limit === 'string' && limit.trim().startsWith('@')) {
      throw new ForbiddenError(`Reading hosts from a file (limit @file) is allowed to ${MANAGERS}`)
    }
  }
}

/** A task message reaches Ansible as a variable, so the same markup rule applies to it. */
export function checkTaskMessage(
  template: TemplateRow,
  trusted: boolean,
  message: string | null | undefined,
): void {
  if (trusted || !message || appOf(template) !== 'ansible') return
  if (TEMPLATE_MARKUP.test(message)) {
    throw new BadRequestError(
      'message can not contain template markup ({{ }}, {% %} or {# #}), which Ansible would evaluate',
    )
  }
}
