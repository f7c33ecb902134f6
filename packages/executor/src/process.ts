import { spawn, type ChildProcessByStdio } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import type { LineSink } from './output.js'
import { LineSplitter } from './output.js'

const LEFTOVER_MS = 2000

export interface Command {
  program: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** Keeps stdin open for `answer` (see `runCommand`); closed (empty) otherwise. */
  stdin?: boolean
  /** Called once the system has started the process. */
  onSpawn?: () => void
}

export interface CommandResult {
  /** Exit code, or null when a signal ended the process or it could not start. */
  code: number | null
  signal: NodeJS.Signals | null
  /** Set when the program could not be started at all. */
  spawnError: string | null
}

/**
 * Tracks the one child process a job runs at a time so a stop can reach its whole process
 * group, including grandchildren that would otherwise keep running and hold the pipes open.
 */
export class ProcessControl {
  stopped = false
  private pid: number | null = null
  private killTimer: NodeJS.Timeout | null = null
  private readonly stopListeners = new Set<() => void>()

  /**
   * @param backlog asked after each chunk of output: while it returns a promise, the output of
   * the running process is not read (the process blocks on its full pipe) until it settles.
   */
  constructor(
    private readonly graceMs: number,
    readonly backlog: () => Promise<void> | null = () => null,
  ) {}

  stop(force: boolean): void {
    const first = !this.stopped
    this.stopped = true
    if (first) for (const listener of this.stopListeners) listener()
    if (this.pid === null) return
    if (force) {
      this.signal('SIGKILL')
      return
    }
    this.signal('SIGTERM')
    if (this.killTimer === null) {
      this.killTimer = setTimeout(() => this.signal('SIGKILL'), this.graceMs)
    }
  }

  /** Called once when a stop is first requested (used to end a confirmation wait). */
  onStop(listener: () => void): () => void {
    this.stopListeners.add(listener)
    return () => this.stopListeners.delete(listener)
  }

  attach(pid: number): void {
    this.pid = pid
  }

  detach(): void {
    this.pid = null
    if (this.killTimer !== null) {
      clearTimeout(this.killTimer)
      this.killTimer = null
    }
  }

  killGroup(): void {
    this.signal('SIGKILL')
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.pid === null) return
    try {
      process.kill(-this.pid, signal)
    } catch {
      // The group is already gone.
    }
  }
}

/**
 * Runs one command in its own process group with stdin closed, sending every stdout and
 * stderr line (in arrival order) to `onLine`. With `command.stdin`, `answer` writes to the
 * process's stdin (for a question it asked); otherwise it does nothing. Resolves once the
 * process has exited and both pipes are closed; never rejects.
 */
export function runCommand(
  command: Command,
  control: ProcessControl,
  onLine: (line: string, answer: (text: string) => void) => void,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: CommandResult): void => {
      if (settled) return
      settled = true
      control.detach()
      resolve(result)
    }
    if (control.stopped) {
      finish({ code: null, signal: 'SIGTERM', spawnError: null })
      return
    }
    const child = spawn(command.program, command.args, {
      cwd: command.cwd,
      env: command.env,
      detached: true,
      stdio: [command.stdin === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>
    const stdin = child.stdin
    // A process that exits without reading its answer must not fail the job (EPIPE).
    stdin?.on('error', () => {})
    const answer = (text: string): void => {
      if (stdin && !stdin.destroyed && stdin.writable) stdin.write(text)
    }
    const out = new LineSplitter((line) => onLine(line, answer))
    const err = new LineSplitter((line) => onLine(line, answer))
    // A consumer that falls behind (storage, live viewers) pauses reading rather than letting
    // lines pile up in memory; none is dropped, the process just waits on its pipe.
    let held = false
    const holdIfBehind = (): void => {
      if (held) return
      const wait = control.backlog()
      if (wait === null) return
      held = true
      child.stdout.pause()
      child.stderr.pause()
      const release = (): void => {
        held = false
        child.stdout.resume()
        child.stderr.resume()
      }
      wait.then(release, release)
    }
    child.stdout.on('data', (chunk: Buffer) => {
      out.write(chunk)
      holdIfBehind()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err.write(chunk)
      holdIfBehind()
    })
    if (command.onSpawn) child.once('spawn', command.onSpawn)
    child.on('error', (error) => {
      finish({ code: null, signal: null, spawnError: error.message })
    })
    // A background process left in the group can hold the pipes open after the main process
    // exited; it must not keep the job running forever, so it gets a short while to finish.
    let leftoverTimer: NodeJS.Timeout | null = null
    child.on('exit', () => {
      leftoverTimer = setTimeout(() => {
        onLine('Killing leftover processes that kept the output open', answer)
        control.killGroup()
        child.stdout.destroy()
        child.stderr.destroy()
      }, LEFTOVER_MS)
    })
    child.on('close', (code, signal) => {
      if (leftoverTimer !== null) clearTimeout(leftoverTimer)
      out.end()
      err.end()
      finish({ code, signal, spawnError: null })
    })
    if (child.pid !== undefined) control.attach(child.pid)
  })
}

/** Runs a command and logs its output through the sink. */
export function runLogged(
  command: Command,
  control: ProcessControl,
  sink: LineSink,
): Promise<CommandResult> {
  return runCommand(command, control, (line) => sink.push(line))
}

/** Runs a command and returns its output instead of logging it (for git queries). */
export async function runCaptured(
  command: Command,
  control: ProcessControl,
): Promise<CommandResult & { lines: string[] }> {
  const lines: string[] = []
  const result = await runCommand(command, control, (line) => lines.push(line))
  return { ...result, lines }
}

/** What child processes get of the server's environment: only what programs need to run. */
export function defaultBaseEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

export function describeFailure(program: string, result: CommandResult): string {
  if (result.spawnError !== null)
    return `Command failed: cannot start ${program}: ${result.spawnError}`
  if (result.signal !== null) return `Command failed: ${program} was killed by ${result.signal}`
  return `Command failed: ${program} exited with code ${String(result.code)}`
}
