import type { Generated } from 'kysely'

/*
 * Row types of every table. Booleans are stored as integers 0/1 and timestamps as
 * ISO-8601 UTC strings on every dialect; repositories map rows to wire types.
 */
type Id = Generated<number>
type Flag = Generated<number>

export interface UserTable {
  id: Id
  created: string
  username: string
  name: string
  email: string
  password: string | null
  admin: Flag
  external: Flag
  alert: Flag
  pro: Flag
  /** The admin flag was given by the LDAP group mapping, which also takes it back. */
  ldap_admin: Flag
}

export interface UserTotpTable {
  id: Id
  user_id: number
  created: string
  secret: string
  recovery_hash: string | null
  /** Time step of the last accepted code; a code of this step or earlier is refused. */
  last_step: number | null
}

export interface SessionTable {
  id: Id
  user_id: number
  token_hash: string
  created: string
  last_active: string
  ip: Generated<string>
  user_agent: Generated<string>
  expired: Flag
  verified: Flag
}

export interface ApiTokenTable {
  id: Id
  user_id: number
  prefix: string
  token_hash: string
  created: string
  expired: Flag
  name: Generated<string>
  expires_at: string | null
  last_used: string | null
}

export interface ProjectTable {
  id: Id
  name: string
  created: string
  alert: Flag
  alert_chat: string | null
  max_parallel_tasks: Generated<number>
  type: Generated<string>
  /** Days of task history kept; null: the server's default, 0: for ever. */
  task_retention_days: number | null
  /** Runs kept per template; null or 0: no limit. */
  max_tasks_per_template: number | null
}

export interface ProjectUserTable {
  id: Id
  project_id: number
  user_id: number
  role: string
  /** Given by the LDAP group mapping at sign-in, which changes and removes it. */
  ldap_managed: Flag
}

export interface EventTable {
  id: Id
  project_id: number | null
  user_id: number | null
  integration_id: number | null
  object_id: number | null
  object_type: string
  object_name: Generated<string>
  description: string
  created: string
}

export interface OptionTable {
  key: string
  value: string
}

export interface EnvironmentTable {
  id: Id
  project_id: number
  name: string
  password: string | null
  json: string
  env: string | null
  /** Docker image chosen in the console; null when none is. */
  image: string | null
  created: string
}

export interface AccessKeyTable {
  id: Id
  project_id: number
  environment_id: number | null
  name: string
  type: string
  owner: Generated<string>
  secret: string | null
  created: string
}

export interface RepositoryTable {
  id: Id
  project_id: number
  ssh_key_id: number
  name: string
  git_url: string
  git_branch: Generated<string>
  created: string
}

export interface InventoryTable {
  id: Id
  project_id: number
  ssh_key_id: number | null
  become_key_id: number | null
  repository_id: number | null
  name: string
  type: string
  inventory: string
  template_id: number | null
  created: string
}

export interface ViewTable {
  id: Id
  project_id: number
  title: string
  position: Generated<number>
}

export interface TemplateTable {
  id: Id
  project_id: number
  inventory_id: number | null
  repository_id: number | null
  environment_id: number | null
  view_id: number | null
  allow_override_args_in_task: Flag
  autorun: Flag
  suppress_success_alerts: Flag
  name: string
  description: string | null
  type: Generated<string>
  app: Generated<string>
  playbook: string
  arguments: string | null
  build_template_id: number | null
  start_version: string | null
  git_branch: string | null
  survey_vars: string | null
  task_params: string | null
  /** Tasks run only on a runner carrying this tag; null: anywhere. */
  runner_tag: string | null
  created: string
}

export interface TemplateVaultTable {
  id: Id
  project_id: number
  template_id: number
  vault_key_id: number | null
  name: string | null
  type: Generated<string>
  script: string | null
}

export interface ScheduleTable {
  id: Id
  project_id: number
  template_id: number
  repository_id: number | null
  name: Generated<string>
  cron_format: string
  last_commit_hash: string | null
  active: Flag
  created: string
  /** IANA time zone; empty: the server's default. */
  timezone: Generated<string>
  /** `skip` or `run_once`. */
  missed_run_policy: Generated<string>
  /** Every due time up to this one has been dealt with; null until a clock has seen it. */
  evaluated_until: string | null
}

/** One due time of a schedule; (schedule_id, due) is unique. */
export interface ScheduleRunTable {
  id: Id
  schedule_id: number
  task_id: number | null
  due: string
  fired: string
  /** `started`, `missed`, `unchanged` or `pending`. */
  outcome: string
  /** `server_down`, `template_busy` or `error`; null when it ran on time. */
  reason: string | null
  count: Generated<number>
}

export interface TaskTable {
  id: Id
  project_id: number
  template_id: number
  debug: Flag
  dry_run: Flag
  diff: Flag
  status: string
  playbook: string | null
  environment: string | null
  arguments: string | null
  hosts_limit: string | null
  git_branch: string | null
  message: string | null
  user_id: number | null
  integration_id: number | null
  schedule_id: number | null
  runner_id: number | null
  build_task_id: number | null
  inventory_id: number | null
  version: string | null
  commit_hash: string | null
  commit_message: string | null
  params: string | null
  created: string
  start: string | null
  end: string | null
  /** Why a waiting task has not started yet. */
  queue_reason: string | null
  /** Run-time secret values, encrypted; cleared when the task starts. */
  secret: string | null
  /** Server process running the task itself; null for runner tasks. */
  claimed_by: string | null
  /** Where the task's start time went (JSON of TaskStartTimings); null before it started. */
  start_timings: string | null
}

export interface TaskOutputTable {
  id: Id
  task_id: number
  time: string
  output: string
  /** 1-based line number within the task; null on rows stored before lines were numbered. */
  line: number | null
}

export interface IntegrationTable {
  id: Id
  project_id: number
  template_id: number
  auth_secret_id: number | null
  name: string
  auth_method: Generated<string>
  auth_header: Generated<string>
  task_params: string | null
  searchable: Flag
  /** Skip a delivery while a task it started is still waiting. */
  debounce: Flag
}

export interface IntegrationMatcherTable {
  id: Id
  integration_id: number
  name: string
  match_type: string
  method: string
  body_data_type: Generated<string>
  key: Generated<string>
  value: string
}

export interface IntegrationExtractValueTable {
  id: Id
  integration_id: number
  name: string
  value_source: string
  body_data_type: Generated<string>
  key: Generated<string>
  variable: Generated<string>
}

export interface IntegrationAliasTable {
  id: Id
  project_id: number
  integration_id: number | null
  alias: string
}

/** One webhook delivery to an integration and what came of it. */
export interface IntegrationDeliveryTable {
  id: Id
  integration_id: number
  created: string
  /** Address the delivery came from. */
  source: Generated<string>
  result: string
  task_id: number | null
}

export interface RunnerTable {
  id: Id
  project_id: number | null
  active: Flag
  name: Generated<string>
  token_hash: string
  webhook: string | null
  max_parallel_tasks: Generated<number>
  public_key: string | null
  /** Comma-separated tags. */
  tag: Generated<string>
  created: string
  touched: string | null
}

/** An HTTP-backend address of a Terraform/OpenTofu workspace (inventory). */
export interface TerraformAliasTable {
  id: Id
  project_id: number
  inventory_id: number
  /** login_password key guarding a user alias. */
  auth_key_id: number | null
  /** Set on a task's own alias, which lives while the task runs. */
  task_id: number | null
  alias: string
  /** SHA-256 (hex) of a task alias's password; null for user aliases. */
  secret_digest: string | null
  created: string
}

/** One stored state version; its compressed text is in terraform_state_chunk. */
export interface TerraformStateTable {
  id: Id
  project_id: number
  inventory_id: number
  task_id: number | null
  alias_id: number | null
  user_id: number | null
  /** task, alias or restore. */
  source: string
  restored_from: number | null
  /** bigint: PostgreSQL returns it as text. */
  serial: number | string | null
  lineage: string | null
  size: number
  /** SHA-256 (hex) of the uncompressed state text. */
  digest: string
  created: string
}

export interface TerraformStateChunkTable {
  state_id: number
  seq: number
  data: Uint8Array
}

/** The lock of a workspace's state; one row at most per workspace. */
export interface TerraformLockTable {
  inventory_id: number
  project_id: number
  task_id: number | null
  alias_id: number | null
  lock_id: string
  /** Lock information JSON as the client sent it. */
  info: string
  created: string
}

/** One alert to deliver in the background (see the alerts module). */
export interface AlertOutboxTable {
  id: Id
  task_id: number
  project_id: number
  /** email, telegram, slack, teams, rocketchat, dingtalk, gotify, discord, mattermost, webhook */
  channel: string
  /** The email address for email; null for chat channels. */
  recipient: string | null
  /** The rendered message (JSON); never an address or a secret of the channel. */
  payload: string
  /** pending, sending, sent or failed. */
  status: string
  attempts: Generated<number>
  next_attempt_at: string
  /** Server process sending it now. */
  claimed_by: string | null
  claimed_at: string | null
  last_error: string | null
  created: string
}

/** A server process serving this database (see the instances module). */
export interface ServerInstanceTable {
  id: string
  host: string
  pid: number
  version: string
  started: string
  /** Last heartbeat, ms since the epoch (the database's clock on PostgreSQL). */
  heartbeat: number
}

export interface Database {
  user: UserTable
  user_totp: UserTotpTable
  session: SessionTable
  api_token: ApiTokenTable
  project: ProjectTable
  project_user: ProjectUserTable
  event: EventTable
  option: OptionTable
  environment: EnvironmentTable
  access_key: AccessKeyTable
  repository: RepositoryTable
  inventory: InventoryTable
  view: ViewTable
  template: TemplateTable
  template_vault: TemplateVaultTable
  schedule: ScheduleTable
  schedule_run: ScheduleRunTable
  task: TaskTable
  task_output: TaskOutputTable
  integration: IntegrationTable
  integration_matcher: IntegrationMatcherTable
  integration_extract_value: IntegrationExtractValueTable
  integration_alias: IntegrationAliasTable
  integration_delivery: IntegrationDeliveryTable
  runner: RunnerTable
  terraform_alias: TerraformAliasTable
  terraform_state: TerraformStateTable
  terraform_state_chunk: TerraformStateChunkTable
  terraform_lock: TerraformLockTable
  alert_outbox: AlertOutboxTable
  server_instance: ServerInstanceTable
}
