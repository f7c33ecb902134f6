import type { JobLine, JobSpec, JobStatus } from '@flagman/contract'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { JobHandle, JobOptions } from '../src/index.js'
import { runJob } from '../src/index.js'

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `flagman-exec-${prefix}-`))
}

/** Creates a git repository with the given files committed. */
export function makeRepo(files: Record<string, string>, message = 'Initial commit'): string {
  const dir = tempDir('repo')
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), content)
  }
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
      },
    }).toString()
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-q', '-m', message)
  return dir
}

export function headOf(dir: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir }).toString().trim()
}

export function makeSpec(overrides: Partial<JobSpec> = {}): JobSpec {
  return {
    taskId: 1,
    projectId: 1,
    templateId: 1,
    app: 'bash',
    appPath: '',
    appArgs: null,
    workRoot: join(tempDir('work'), 'project_1'),
    repository: { id: 1, url: '/nonexistent', branch: '', key: { type: 'none' } },
    gitBranch: '',
    commitHash: '',
    playbook: 'run.sh',
    inventory: null,
    extraVars: {},
    secretVars: {},
    varSecrets: [],
    env: {},
    templateArgs: [],
    taskArgs: [],
    ansible: {
      debug: false,
      debugLevel: 0,
      dryRun: false,
      diff: false,
      limit: [],
      tags: [],
      skipTags: [],
    },
    terraform: {
      plan: false,
      destroy: false,
      autoApprove: false,
      upgrade: false,
      reconfigure: false,
      backend: null,
    },
    vaults: [],
    secretsToMask: [],
    ...overrides,
  }
}

export interface Recorded {
  lines: JobLine[]
  batches: number
  statuses: JobStatus[]
  commits: Array<{ hash: string; message: string }>
  text(): string
}

export function start(
  spec: JobSpec,
  options?: JobOptions,
  onStatus?: (status: JobStatus, handle: JobHandle) => void,
): { handle: JobHandle; rec: Recorded } {
  const rec: Recorded = {
    lines: [],
    batches: 0,
    statuses: [],
    commits: [],
    text: () => rec.lines.map((l) => l.output).join('\n'),
  }
  const handle: JobHandle = runJob(
    spec,
    {
      onLines: (lines) => {
        rec.batches += 1
        rec.lines.push(...lines)
      },
      onStatus: (status) => {
        rec.statuses.push(status)
        if (onStatus) setImmediate(() => onStatus(status, handle))
      },
      onCommit: (hash, message) => rec.commits.push({ hash, message }),
    },
    options,
  )
  return { handle, rec }
}

/** Waits until a line containing `text` has been delivered. */
export async function waitForLine(rec: Recorded, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!rec.lines.some((l) => l.output.includes(text))) {
    if (Date.now() > deadline) throw new Error(`line not seen: ${text}\n${rec.text()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Entries of the work root: only clone dirs may stay after a job. */
export function workRootEntries(workRoot: string): string[] {
  try {
    return readdirSync(workRoot).sort()
  } catch {
    return []
  }
}

/** Writes executable stand-ins into a fresh bin dir. */
export function makeBin(scripts: Record<string, string>): string {
  const dir = tempDir('bin')
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), body)
    chmodSync(join(dir, name), 0o755)
  }
  return dir
}
