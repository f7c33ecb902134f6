import type { JobResult, JobSpec } from '@flagman/contract'
import { appFields, BACKEND_OVERRIDE_CONTENT, isBackendFilename } from '@flagman/contract'
import { rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { buildAnsibleCommand, buildAnsibleExtraVars, ANSIBLE_ENV } from './apps/ansible.js'
import type { AppCommand } from './apps/common.js'
import { withTaskDetails } from './apps/common.js'
import { buildShellCommand } from './apps/shell.js'
import { buildTerraformCommands, isTerraformApp } from './apps/terraform.js'
import { PathEscapeError, resolveInside, resolveRepoPath } from './files.js'
import type { RepositoryContext } from './git.js'
import {
  checkoutCommit,
  PreparationError,
  prepareRepository,
  readCommit,
  writePrivateKey,
} from './git.js'
import type { CommandResult, ProcessControl } from './process.js'
import type { StartPhases } from './start-phases.js'
import { describeFailure, runCaptured, runCommand } from './process.js'

export interface JobContext extends RepositoryContext {
  spec: JobSpec
  /** Measures the start phases and reports them when the app's first process runs. */
  phases: StartPhases
  onStatus: (status: 'running' | 'waiting_confirmation') => void
  onCommit: (hash: string, message: string) => void
  /** Resolves true on confirm, false on reject or stop. */
  waitForConfirmation: () => Promise<boolean>
}

/** Ends the job early with a final result after its line has been logged. */
class JobEnd extends Error {
  constructor(readonly result: JobResult) {
    super(result)
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

function checkStopped(control: ProcessControl): void {
  if (control.stopped) throw new JobEnd('stopped')
}

/** Runs a stage; a stop ends the job 'stopped', a failure ends it 'error'. */
async function runStage(
  ctx: JobContext,
  command: AppCommand,
  cwd: string,
  onLine?: (line: string, answer: (text: string) => void) => void,
): Promise<CommandResult> {
  // App defaults (ANSIBLE_FORCE_COLOR …) first so the environment's own values can override them.
  const env = { ...ctx.baseEnv, PWD: cwd, ...command.env, ...ctx.spec.env }
  for (const note of command.notes ?? []) ctx.sink.push(note)
  // The new process's first line goes out at once, whatever was printed just before it.
  ctx.sink.startStream()
  const full = {
    program: command.program,
    args: command.args,
    cwd,
    env,
    stdin: command.stdin,
    onSpawn: ctx.phases.spawnWatcher(),
  }
  const result = await runCommand(full, ctx.control, (line, answer) => {
    ctx.sink.push(line)
    onLine?.(line, answer)
  })
  checkStopped(ctx.control)
  if (result.code !== 0) {
    ctx.sink.push(describeFailure(command.program, result))
    throw new JobEnd('error')
  }
  return result
}

export async function executeJob(ctx: JobContext): Promise<JobResult> {
  const { spec, sink, control } = ctx
  try {
    ctx.onStatus('running')
    sink.push(`Preparing: ${String(spec.taskId)}`)
    const { repoDir, commit } = await ctx.phases.repositoryWork(async () => {
      const dir = await prepareRepository(
        spec.repository,
        spec.gitBranch,
        `repository_${String(spec.repository.id)}_template_${String(spec.templateId)}`,
        ctx,
      )
      checkStopped(control)
      if (spec.commitHash !== '') {
        await checkoutCommit(dir, spec.repository, spec.commitHash, ctx)
        checkStopped(control)
      }
      return { repoDir: dir, commit: await readCommit(dir, ctx) }
    })
    checkStopped(control)
    if (commit !== null) {
      ctx.onCommit(commit.hash, commit.message)
      ctx.spec = withTaskDetails(ctx.spec, {
        commit_hash: commit.hash,
        commit_message: commit.message,
      })
    }

    if (spec.app === 'ansible') await runAnsible(ctx, repoDir)
    else if (isTerraformApp(spec.app)) await runTerraform(ctx, repoDir)
    else await runShell(ctx, repoDir)
    return 'success'
  } catch (error) {
    if (control.stopped) return 'stopped'
    if (error instanceof JobEnd) return error.result
    if (error instanceof PreparationError || error instanceof PathEscapeError) {
      sink.push(error.message)
    } else {
      sink.push(`Failed to run task: ${error instanceof Error ? error.message : String(error)}`)
    }
    return 'error'
  }
}

/**
 * The playbook of a shell app as it reaches the program: a script (bash, python, powershell
 * and administrator apps) must be a file of the repository and is given by its absolute path;
 * pulumi's is a word for the program (`up`, a stack folder), which must not look like an
 * option.
 */
async function shellPlaybook(spec: JobSpec, repoDir: string): Promise<string> {
  if (appFields(spec.app).playbookKind !== 'program') {
    return resolveRepoPath(repoDir, spec.playbook, 'Playbook')
  }
  if (spec.playbook === '') return ''
  refuseOption(spec.playbook, 'Playbook')
  resolveInside(repoDir, spec.playbook, 'Playbook')
  return spec.playbook
}

/** Refuses a value a program would read as an option. */
function refuseOption(value: string, what: string): void {
  if (value.startsWith('-')) {
    throw new PathEscapeError(`${what} "${value}" can not start with "-"`)
  }
}

async function runShell(ctx: JobContext, repoDir: string): Promise<void> {
  const playbook = await shellPlaybook(ctx.spec, repoDir)
  await runStage(ctx, buildShellCommand({ ...ctx.spec, playbook }), repoDir)
}

/** Candidate requirement files per kind, nearest to the playbook first. */
function galaxyCandidates(
  repoDir: string,
  playbookDir: string,
  kind: 'collection' | 'role',
): string[] {
  const sub = kind === 'collection' ? 'collections' : 'roles'
  const list = [
    join(playbookDir, sub, 'requirements.yml'),
    join(playbookDir, 'requirements.yml'),
    join(repoDir, sub, 'requirements.yml'),
    join(repoDir, 'requirements.yml'),
  ]
  return [...new Set(list)]
}

async function installGalaxy(ctx: JobContext, repoDir: string, playbook: string): Promise<void> {
  for (const kind of ['collection', 'role'] as const) {
    let found: string | null = null
    for (const candidate of galaxyCandidates(repoDir, dirname(playbook), kind)) {
      if (await exists(candidate)) {
        found = candidate
        break
      }
    }
    if (found === null) {
      ctx.sink.push(`No ${kind} requirements file found. Skip galaxy install process.`)
      continue
    }
    await runStage(
      ctx,
      {
        program: 'ansible-galaxy',
        args: [kind, 'install', '-r', found, '--force'],
        env: { ...ANSIBLE_ENV },
      },
      repoDir,
    )
  }
}

async function runAnsible(ctx: JobContext, repoDir: string): Promise<void> {
  const { spec, temp } = ctx
  const playbook = await resolveRepoPath(repoDir, spec.playbook, 'Playbook')
  const inventory = spec.inventory
  let inventoryPath: string | null = null
  let privateKey: string | null = null
  if (inventory !== null) {
    if (inventory.type === 'static' || inventory.type === 'static-yaml') {
      ctx.sink.push('Installing static inventory')
      const name = `inventory_${String(inventory.id)}${inventory.type === 'static-yaml' ? '.yml' : ''}`
      inventoryPath = await temp.write(name, inventory.content)
    } else if (inventory.type === 'file') {
      let root = repoDir
      if (inventory.repository !== null) {
        ctx.sink.push('Cloning inventory repository')
        const repository = inventory.repository
        root = await ctx.phases.repositoryWork(() =>
          prepareRepository(
            repository,
            '',
            `repository_${String(repository.id)}_inventory_${String(inventory.id)}`,
            ctx,
          ),
        )
        checkStopped(ctx.control)
      }
      // An ansible inventory may be a file or a folder of them.
      inventoryPath = await resolveRepoPath(root, inventory.content, 'Inventory', 'entry')
    } else {
      throw new PreparationError(
        `Failed to install inventory: invalid inventory type ${inventory.type}`,
      )
    }
    if (inventory.sshKey.type === 'ssh') {
      privateKey = await writePrivateKey(
        temp,
        `inventory_key_${String(inventory.id)}`,
        inventory.sshKey.privateKey,
        inventory.sshKey.passphrase,
      )
    }
  }
  const vaultIds: string[] = []
  for (const [index, vault] of spec.vaults.entries()) {
    const name = vault.name ?? 'default'
    if (vault.type === 'password') {
      const file = await temp.write(`vault_${String(index)}`, vault.password)
      vaultIds.push(`${name}@${file}`)
    } else {
      vaultIds.push(`${name}@${await resolveRepoPath(repoDir, vault.script, 'Vault script')}`)
    }
  }
  const extraVars = await temp.write('extra_vars.json', JSON.stringify(buildAnsibleExtraVars(spec)))
  await installGalaxy(ctx, repoDir, playbook)
  const command = buildAnsibleCommand(
    { ...spec, playbook },
    {
      inventory: inventoryPath,
      privateKey,
      extraVars,
      vaultIds,
    },
  )
  await runStage(ctx, command, repoDir)
}

async function runTerraform(ctx: JobContext, repoDir: string): Promise<void> {
  const { spec, sink } = ctx
  // The playbook names the module directory; a leading '/' means the repository root.
  const sub = spec.playbook.replace(/^\/+/, '')
  const cwd = sub === '' ? repoDir : await resolveRepoPath(repoDir, sub, 'Playbook', 'directory')
  if (spec.inventory !== null) refuseOption(spec.inventory.content, 'Workspace')
  const tf = buildTerraformCommands(spec)
  for (const note of tf.notes) sink.push(note)
  const backendFile = await writeBackendFile(ctx, cwd)
  try {
    await runTerraformStages(ctx, cwd, tf)
  } finally {
    if (backendFile !== null) await rm(backendFile, { force: true })
  }
}

/**
 * The template's backend override: an empty `http` backend block in the module directory,
 * configured by the TF_HTTP_* environment. A file of that name in the repository is never
 * overwritten (and so never deleted afterwards).
 */
async function writeBackendFile(ctx: JobContext, cwd: string): Promise<string | null> {
  const name = ctx.spec.terraform.backend?.overrideFile ?? null
  if (name === null) return null
  if (!isBackendFilename(name)) {
    throw new PathEscapeError(`The backend file name "${name}" is not a plain .tf file name`)
  }
  const file = join(cwd, name)
  if (await exists(file)) {
    throw new PreparationError(
      `The backend file ${name} already exists in the module directory; choose another backend file name in the template, for example backend_override.tf`,
    )
  }
  await writeFile(file, BACKEND_OVERRIDE_CONTENT, { flag: 'wx', mode: 0o600 })
  ctx.sink.push(`Using the workspace's HTTP backend (${name})`)
  ctx.sink.push(
    "No Terraform workspace is selected: the backend's address already names the workspace",
  )
  return file
}

async function runTerraformStages(
  ctx: JobContext,
  cwd: string,
  tf: ReturnType<typeof buildTerraformCommands>,
): Promise<void> {
  const { spec, sink, control } = ctx
  const stage = (args: string[], onLine?: (line: string) => void): Promise<CommandResult> =>
    runStage(ctx, { program: tf.program, args, env: tf.env }, cwd, onLine)

  // A changed backend makes init ask whether to copy the state: the task waits for a
  // confirmation, then answers yes (confirm) or no (reject, and init fails).
  let migration = Promise.resolve()
  await runStage(
    ctx,
    { program: tf.program, args: tf.init, env: tf.env, stdin: true },
    cwd,
    (line, answer) => {
      if (!line.includes('Do you want to copy')) return
      migration = migration.then(async () => {
        ctx.onStatus('waiting_confirmation')
        sink.push('Waiting for confirmation')
        const confirmed = await ctx.waitForConfirmation()
        if (control.stopped) return
        if (confirmed) ctx.onStatus('running')
        answer(confirmed ? 'yes\n' : 'no\n')
      })
    },
  )
  await migration
  checkStopped(control)
  if (tf.selectWorkspace) {
    const list = await runCaptured(
      {
        program: tf.program,
        args: tf.workspaceList,
        cwd,
        env: { ...ctx.baseEnv, ...tf.env, ...spec.env },
      },
      control,
    )
    checkStopped(control)
    if (list.code === 0) await stage(tf.workspaceSelect)
  }

  let noChanges = false
  await stage(tf.plan, (line) => {
    if (line.includes('No changes.')) noChanges = true
  })
  if (noChanges || spec.terraform.plan) return
  if (!spec.terraform.autoApprove) {
    ctx.onStatus('waiting_confirmation')
    sink.push('Waiting for confirmation')
    const confirmed = await ctx.waitForConfirmation()
    checkStopped(control)
    if (!confirmed) {
      sink.push('Plan rejected: the changes were not applied')
      throw new JobEnd('error')
    }
    ctx.onStatus('running')
    sink.push('Plan confirmed')
  }
  await stage(tf.apply)
}
