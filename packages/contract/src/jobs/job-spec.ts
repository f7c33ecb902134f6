/*
 * Everything the executor needs to run one task, resolved and decrypted by the server (or
 * sent to a remote runner). The executor never reads the database.
 */

export type KeyMaterial =
  | { type: 'none' }
  | { type: 'ssh'; login: string; privateKey: string; passphrase: string }
  | { type: 'login_password'; login: string; password: string }

export interface JobRepository {
  id: number
  /** As configured: a local path, scp-like SSH, or a git/file/ssh/http(s) URL. */
  url: string
  /** Branch to clone; empty for local repositories. */
  branch: string
  key: KeyMaterial
}

export interface JobInventory {
  id: number
  type: 'static' | 'static-yaml' | 'file' | 'terraform-workspace' | 'tofu-workspace'
  /** Inventory text (static types), a path inside the repository (file), or a workspace name. */
  content: string
  /** Repository holding a `file` inventory; null: the template's repository. */
  repository: JobRepository | null
  sshKey: KeyMaterial
  becomeKey: KeyMaterial
}

export interface JobVault {
  /** Vault id; null is the default vault. */
  name: string | null
  type: 'password' | 'script'
  password: string
  /** Client script path inside the repository (script vaults). */
  script: string
}

export interface JobSpec {
  taskId: number
  projectId: number
  templateId: number
  /** ansible, terraform, tofu, pulumi, bash, python, powershell, or an administrator's app id. */
  app: string
  /** Program and prefix arguments configured for the app; defaults apply when empty. */
  appPath: string
  appArgs: string[] | null
  /** Folder the executor may use for this project's clones and temporary files. */
  workRoot: string
  repository: JobRepository
  /** Branch override (template or task); empty keeps the repository's branch. */
  gitBranch: string
  /** Commit the task asked for, checked out after the clone or update; empty: the branch head. */
  commitHash: string
  /** Playbook, script or sub-directory, relative to the repository root. */
  playbook: string
  inventory: JobInventory | null
  /** Extra variables: environment JSON overlaid by the task's values, plus semaphore_vars. */
  extraVars: Record<string, unknown>
  /** Secret survey values (Ansible only). */
  secretVars: Record<string, unknown>
  /** Environment secrets of type var: ansible extra vars, process environment variables otherwise. */
  varSecrets: Array<{ name: string; value: string }>
  /** Process environment: environment `env` JSON, env secrets and task metadata. */
  env: Record<string, string>
  templateArgs: string[]
  taskArgs: string[]
  ansible: {
    debug: boolean
    debugLevel: number
    dryRun: boolean
    diff: boolean
    limit: string[]
    tags: string[]
    skipTags: string[]
  }
  terraform: {
    plan: boolean
    destroy: boolean
    autoApprove: boolean
    upgrade: boolean
    reconfigure: boolean
    /**
     * The workspace's HTTP backend on this server, when the task has one: its address and the
     * task's own credentials reach the program as TF_HTTP_* environment variables (never as
     * arguments); `overrideFile` (the template's `override_backend`) is the file name of an
     * empty `http` backend block written into the module directory before init and removed
     * after the run, null when the task's own configuration chooses the backend.
     */
    backend: {
      address: string
      username: string
      password: string
      overrideFile: string | null
    } | null
  }
  vaults: JobVault[]
  /** Values that must never appear in the output; the executor replaces them with ****. */
  secretsToMask: string[]
}

/** Statuses a job reports while it runs; the server owns every other transition. */
export type JobStatus = 'running' | 'waiting_confirmation'

export type JobResult = 'success' | 'error' | 'stopped'

export interface JobLine {
  /** ISO-8601 UTC time the line was read. */
  time: string
  output: string
}
