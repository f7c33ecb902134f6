import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FLAGMAN_BIN, inheritedEnv } from './server.js'

/** A `flagman runner start` process started by a test. */
export interface RunnerProcess {
  /** Everything it printed so far (stdout and stderr). */
  output(): string
  /** Resolves once a line of its output matches. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>
  /** SIGTERM: the runner ends its jobs, reports them and exits. */
  stop(): Promise<number | null>
  /** SIGKILL: gone at once, like a crashed machine; its jobs' processes go with it. */
  kill(): Promise<void>
  /** Its own work folder (clones, temporary files). */
  workDir: string
}

const running = new Set<RunnerProcess>()

/** Arguments after `flagman runner start`, e.g. `['--config', file]`. */
export function startRunner(args: string[], env: Record<string, string> = {}): RunnerProcess {
  const workDir = mkdtempSync(join(tmpdir(), 'flagman-runner-work-'))
  // Its own process group, so a SIGKILL reaches the jobs' processes too, as a machine that
  // died would take them with it.
  const child: ChildProcess = spawn(
    process.execPath,
    [FLAGMAN_BIN, 'runner', 'start', '--work-dir', workDir, ...args],
    { env: { ...inheritedEnv(), ...env }, stdio: 'pipe', detached: true },
  )
  let log = ''
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    log += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      for (const listener of listeners) listener()
      resolve(code)
    }),
  )
  const alive = () => child.exitCode === null && child.signalCode === null
  const runner: RunnerProcess = {
    workDir,
    output: () => log,
    exited,
    waitForOutput(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(log)) {
            done()
            resolve()
          } else if (!alive()) {
            done()
            reject(new Error(`the runner exited before printing ${pattern}:\n${log}`))
          }
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`the runner did not print ${pattern}:\n${log}`))
        }, timeoutMs)
        const done = () => {
          clearTimeout(timer)
          listeners.delete(check)
        }
        listeners.add(check)
        check()
      })
    },
    async stop() {
      if (alive()) child.kill('SIGTERM')
      const code = await exited
      running.delete(runner)
      rmSync(workDir, { recursive: true, force: true })
      return code
    },
    async kill() {
      if (alive() && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      await exited
      running.delete(runner)
      rmSync(workDir, { recursive: true, force: true })
    },
  }
  running.add(runner)
  return runner
}

/** Stops every runner a test left running (in afterEach/afterAll). */
export async function stopAllRunners(): Promise<void> {
  await Promise.all([...running].map((r) => r.kill()))
}

/** Runs a `flagman runner …` command to its end; answers its exit code and output. */
export function runnerCommand(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [FLAGMAN_BIN, 'runner', ...args], {
    env: { ...inheritedEnv(), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
