import type { JobLine, JobResult, JobSpec, JobStatus } from '@flagman/contract'
import { TempDir } from './files.js'
import { executeJob } from './job.js'
import { LineSink } from './output.js'
import { defaultBaseEnv, ProcessControl } from './process.js'
import { StartPhases, type JobStartPhases } from './start-phases.js'

export { buildAnsibleArgs, buildAnsibleExtraVars } from './apps/ansible.js'
export type { AnsibleFiles } from './apps/ansible.js'
export { buildShellCommand } from './apps/shell.js'
export { buildTerraformCommands } from './apps/terraform.js'
export { outsideEnv, outsideEnvAllowed } from './env-policy.js'
export { readRemoteHead, type RemoteHeadOptions } from './git.js'
export * from './payload-crypto.js'
export type { JobStartPhases } from './start-phases.js'

export interface JobHooks {
  /** Output lines, in order, in batches (at most every ~50 ms or per 1000 lines, and once at the end). */
  onLines(lines: JobLine[]): void
  /** 'running' once preparation starts; 'waiting_confirmation' while a plan awaits confirm(). */
  onStatus(status: JobStatus): void
  /** Commit of the checked-out repository (hash, first line of the message cut to 100 chars). */
  onCommit(hash: string, message: string): void
  /**
   * A promise while the consumer of `onLines` is behind; the job stops reading its processes'
   * output until it settles. Null (or absent) when it keeps up.
   */
  outputBacklog?(): Promise<void> | null
  /** Once, when the app's first process runs: where the job's start went. */
  onStarted?(phases: JobStartPhases): void
}

export interface JobOptions {
  /** Base environment for child processes; the server's own env is not inherited otherwise. */
  baseEnv?: Record<string, string>
  /** Grace period between SIGTERM and SIGKILL on a normal stop (default 15000 ms). */
  graceMs?: number
}

export interface JobHandle {
  /** force=false: SIGTERM to the process group, SIGKILL after graceMs; force=true: SIGKILL. */
  stop(force: boolean): void
  /** Answers a waiting confirmation (terraform/tofu apply). */
  confirm(): void
  /** Rejects it: the job ends 'error'. */
  reject(): void
  /** Resolves (never rejects) once every child has exited and temp files are removed. */
  readonly done: Promise<JobResult>
}

function safely(call: () => void): void {
  try {
    call()
  } catch {
    // A throwing hook must not break the job.
  }
}

/** Runs one task as child processes and reports its lines, statuses and outcome. */
export function runJob(spec: JobSpec, hooks: JobHooks, options: JobOptions = {}): JobHandle {
  const control = new ProcessControl(options.graceMs ?? 15_000, () => {
    try {
      return hooks.outputBacklog?.() ?? null
    } catch {
      return null
    }
  })
  const sink = new LineSink((lines) => hooks.onLines(lines), spec.secretsToMask)
  const baseEnv = options.baseEnv ?? defaultBaseEnv()
  let answer: ((confirmed: boolean) => void) | null = null

  const waitForConfirmation = (): Promise<boolean> =>
    new Promise((resolve) => {
      const unsubscribe = control.onStop(() => finish(false))
      function finish(confirmed: boolean): void {
        answer = null
        unsubscribe()
        resolve(confirmed)
      }
      answer = finish
      if (control.stopped) finish(false)
    })

  const run = async (): Promise<JobResult> => {
    const temp = TempDir.create(spec.workRoot, spec.taskId)
    let result = await executeJob({
      spec,
      workRoot: spec.workRoot,
      temp,
      baseEnv,
      control,
      sink,
      phases: new StartPhases(
        () => temp.spentMs,
        (phases) => safely(() => hooks.onStarted?.(phases)),
      ),
      onStatus: (status) => safely(() => hooks.onStatus(status)),
      onCommit: (hash, message) => safely(() => hooks.onCommit(hash, message)),
      waitForConfirmation,
    })
    try {
      await temp.remove()
    } catch (error) {
      sink.push(
        `Failed to remove temporary files: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    // A stop that arrived while the last process was exiting still wins over success.
    if (control.stopped) result = 'stopped'
    sink.push(`Task finished: ${result}`)
    sink.flush()
    return result
  }

  const done = run().catch((): JobResult => 'error')
  return {
    stop: (force) => control.stop(force),
    confirm: () => answer?.(true),
    reject: () => answer?.(false),
    done,
  }
}
