import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildShellCommand, runJob } from '../src/index.js'
import { headOf, makeRepo, makeSpec, start, waitForLine, workRootEntries } from './helpers.js'

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

const repo = makeRepo(
  {
    'run.sh':
      'echo "hello from bash"\necho "to stderr" >&2\necho "args: $*"\necho "env: $GREETING"\n',
    'fail.sh': 'echo "about to fail"\nexit 3\n',
    'many.sh': 'seq 1 100000\n',
    'many-pid.sh': 'echo "pid $$"\nexec seq 1 100000\n',
    'sleep.sh': 'echo started\nsleep 30\necho never\n',
    'stubborn.sh': "trap 'echo TERM ignored' TERM\necho started\nwhile true; do sleep 0.1; done\n",
    'background.sh': 'sleep 300 &\necho main done\n',
    'secret.sh': 'echo "the token is $TOKEN and again $TOKEN"\n',
    'scripts/hello.py':
      'import sys\nprint("python says", sys.argv[1:])\nprint("py err", file=sys.stderr)\n',
  },
  'Add scripts for the executor',
)

/** Never reached while a test runs: the test timeout ends a test that would wait for it. */
const FOREVER_MS = 3_600_000

/**
 * What a process waits on in the kernel (Linux), or '' once it is gone. A process whose
 * output is not read waits in `sock_alloc_send_pskb` (Node's pipes are socket pairs) or
 * `pipe_write`.
 */
function waitingOn(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/wchan`, 'utf8')
  } catch {
    return ''
  }
}

/** Polls the condition until it holds; fails with `what` after the deadline. */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('bash and python from a local repository', () => {
  it('runs bash with stdout and stderr captured and timestamped', async () => {
    const spec = makeSpec({
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      env: { GREETING: 'hi' },
      varSecrets: [{ name: 'vs', value: 'one' }],
      templateArgs: ['--tpl'],
      extraVars: { a: 'x', n: 5, semaphore_vars: { id: 1 } },
      taskArgs: ['--task'],
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    const out = rec.lines.map((l) => l.output)
    expect(out[0]).toBe('Preparing: 1')
    expect(out).toContain(`Using local repository ${repo}`)
    expect(out).toContain('hello from bash')
    expect(out).toContain('to stderr')
    // The var secret reaches the script as $vs, never as an argument.
    expect(out).toContain('args: --tpl a=x n=5 --task')
    expect(out).toContain('env: hi')
    expect(out.at(-1)).toBe('Task finished: success')
    for (const line of rec.lines) expect(line.time).toMatch(ISO)
    expect(rec.statuses).toEqual(['running'])
    expect(rec.commits).toEqual([{ hash: headOf(repo), message: 'Add scripts for the executor' }])
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('runs python with its arguments', async () => {
    const spec = makeSpec({
      app: 'python',
      playbook: 'scripts/hello.py',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      templateArgs: ['x'],
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    expect(rec.text()).toContain("python says ['x']")
    expect(rec.text()).toContain('py err')
  })

  it('ends in error on a non-zero exit', async () => {
    const spec = makeSpec({
      playbook: 'fail.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    const out = rec.lines.map((l) => l.output)
    expect(out).toContain('about to fail')
    expect(out).toContain('Command failed: bash exited with code 3')
    expect(out.at(-1)).toBe('Task finished: error')
  })

  it('delivers 100k lines in order, batched', async () => {
    const spec = makeSpec({
      playbook: 'many.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    const numbers = rec.lines.map((l) => l.output).filter((l) => /^\d+$/.test(l))
    expect(numbers.length).toBe(100_000)
    numbers.forEach((n, i) => {
      if (n !== String(i + 1)) throw new Error(`line ${i} is ${n}`)
    })
    expect(rec.batches).toBeGreaterThanOrEqual(100)
    expect(rec.batches).toBeLessThan(100_000 / 10)
  })

  it('stops reading a process while the consumer is behind, and loses no line', async () => {
    const spec = makeSpec({
      playbook: 'many-pid.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const numbers = (): string[] => lines.filter((l) => /^\d+$/.test(l))
    const lines: string[] = []
    // The executor asks after each chunk of output it reads, and not while it holds back.
    let asks = 0
    let holding = false
    const handle = runJob(spec, {
      onLines: (batch) => lines.push(...batch.map((l) => l.output)),
      onStatus: () => {},
      onCommit: () => {},
      // Behind as soon as the process has printed a number, until released.
      outputBacklog: () => {
        asks += 1
        if (holding || numbers().length === 0) return null
        holding = true
        return held
      },
    })
    let settled = false
    void handle.done.then(() => (settled = true))
    await until(() => holding, 'the first numbers')
    const asksWhenHeld = asks
    const pid = Number(/^pid (\d+)$/.exec(lines.find((l) => l.startsWith('pid ')) ?? '')?.[1])
    expect(pid).toBeGreaterThan(0)
    // seq fills the pipe and waits on it: its output is there to be read.
    await until(() => {
      const waiting = waitingOn(pid)
      if (waiting === '') throw new Error('seq finished while the consumer was behind')
      return /pipe_write|sock_alloc_send|unix_stream_sendmsg/.test(waiting)
    }, 'seq to wait on its full output pipe')
    // Turns of the event loop in each of which a stream that is read would take that output.
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve))
    expect(asks).toBe(asksWhenHeld)
    expect(/pipe_write|sock_alloc_send|unix_stream_sendmsg/.test(waitingOn(pid))).toBe(true)
    expect(settled).toBe(false)
    expect(numbers().length).toBeLessThan(100_000)
    release()
    expect(await handle.done).toBe('success')
    expect(numbers()).toEqual(Array.from({ length: 100_000 }, (_, i) => String(i + 1)))
  })

  it('stops a sleeping script with SIGTERM', async () => {
    const spec = makeSpec({
      playbook: 'sleep.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    // No SIGKILL comes while the test runs: SIGTERM alone ends the script.
    const { handle, rec } = start(spec, { graceMs: FOREVER_MS })
    await waitForLine(rec, 'started')
    handle.stop(false)
    expect(await handle.done).toBe('stopped')
    expect(rec.text()).not.toContain('never')
    expect(rec.lines.at(-1)?.output).toBe('Task finished: stopped')
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('force-stops a script that ignores SIGTERM at once', async () => {
    const spec = makeSpec({
      playbook: 'stubborn.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    // The grace period never ends while the test runs: only an immediate SIGKILL stops it.
    const { handle, rec } = start(spec, { graceMs: FOREVER_MS })
    await waitForLine(rec, 'started')
    handle.stop(true)
    expect(await handle.done).toBe('stopped')
    // Killed outright: it never saw a SIGTERM.
    expect(rec.text()).not.toContain('TERM ignored')
  })

  it('kills a script that ignores SIGTERM after the grace period', async () => {
    const spec = makeSpec({
      playbook: 'stubborn.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec, { graceMs: 500 })
    await waitForLine(rec, 'started')
    handle.stop(false)
    expect(await handle.done).toBe('stopped')
    // SIGTERM came first, and the script outlived it until the SIGKILL.
    expect(rec.text()).toContain('TERM ignored')
    expect(rec.lines.at(-1)?.output).toBe('Task finished: stopped')
  })

  it('does not wait for a background process holding the output', async () => {
    const spec = makeSpec({
      playbook: 'background.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    // The background sleep outlasts the test timeout: the job ends only because it is killed.
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    expect(rec.text()).toContain('main done')
    expect(rec.text()).toContain('Killing leftover processes that kept the output open')
  })

  it('masks secrets in app output and executor lines', async () => {
    const spec = makeSpec({
      playbook: 'secret.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      env: { TOKEN: 's3cr3t-value' },
      secretsToMask: ['s3cr3t', 's3cr3t-value', ''],
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    expect(rec.text()).toContain('the token is **** and again ****')
    expect(rec.text()).not.toContain('s3cr3t')
  })

  it('refuses a script path that escapes the repository', async () => {
    for (const playbook of ['../outside.sh', '/etc/passwd', 'scripts/../../x.sh']) {
      const spec = makeSpec({
        playbook,
        repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      })
      const { handle, rec } = start(spec)
      expect(await handle.done).toBe('error')
      expect(rec.text()).toContain(`Playbook "${playbook}" is outside the repository`)
      expect(workRootEntries(spec.workRoot)).toEqual([])
    }
  })

  it('fails clearly when a local repository does not exist', async () => {
    const spec = makeSpec({
      repository: { id: 1, url: '/no/such/repository', branch: '', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('Failed in finding static repository at /no/such/repository')
  })

  it('ends in error when the program cannot be started', async () => {
    const spec = makeSpec({
      appPath: '/no/such/program',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('Command failed: cannot start /no/such/program')
  })
})

describe('cloned repositories', () => {
  it('clones a file:// URL, reports the commit and updates on the next run', async () => {
    const spec = makeSpec({
      repository: { id: 7, url: `file://${repo}`, branch: 'main', key: { type: 'none' } },
      templateId: 3,
    })
    const first = start(spec)
    expect(await first.handle.done).toBe('success')
    expect(first.rec.text()).toContain(`Cloning repository file://${repo}`)
    expect(first.rec.text()).toContain('hello from bash')
    expect(first.rec.commits).toEqual([
      { hash: headOf(repo), message: 'Add scripts for the executor' },
    ])
    expect(workRootEntries(spec.workRoot)).toEqual(['repository_7_template_3'])
    expect(existsSync(join(spec.workRoot, 'repository_7_template_3', 'run.sh'))).toBe(true)

    const second = start(spec)
    expect(await second.handle.done).toBe('success')
    expect(second.rec.text()).toContain(`Updating repository file://${repo}`)
    expect(workRootEntries(spec.workRoot)).toEqual(['repository_7_template_3'])
  })

  it('fetches new commits and follows a branch override', async () => {
    const source = makeRepo({ 'run.sh': 'echo version one\n' }, 'First')
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
        cwd: source,
      })
    }
    const spec = makeSpec({
      repository: { id: 11, url: `file://${source}`, branch: 'main', key: { type: 'none' } },
    })
    const first = start(spec)
    expect(await first.handle.done).toBe('success')
    expect(first.rec.text()).toContain('version one')

    writeFileSync(join(source, 'run.sh'), 'echo version two\n')
    git('commit', '-q', '-am', 'Second')
    const second = start(spec)
    expect(await second.handle.done).toBe('success')
    expect(second.rec.text()).toContain('version two')
    expect(second.rec.commits[0]?.message).toBe('Second')

    git('checkout', '-q', '-b', 'feature')
    writeFileSync(join(source, 'run.sh'), 'echo feature branch\n')
    git('commit', '-q', '-am', 'Feature')
    git('checkout', '-q', 'main')
    const third = start({ ...spec, gitBranch: 'feature' })
    expect(await third.handle.done).toBe('success')
    expect(third.rec.text()).toContain('feature branch')
    const featureHash = execFileSync('git', ['rev-parse', 'feature'], { cwd: source })
      .toString()
      .trim()
    expect(third.rec.commits).toEqual([{ hash: featureHash, message: 'Feature' }])
  })

  it('clones again when the cached clone is broken', async () => {
    const spec = makeSpec({
      repository: { id: 12, url: `file://${repo}`, branch: 'main', key: { type: 'none' } },
    })
    mkdirSync(join(spec.workRoot, 'repository_12_template_1'), { recursive: true })
    writeFileSync(join(spec.workRoot, 'repository_12_template_1', 'junk'), 'x')
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    expect(rec.text()).toContain(`Updating failed, cloning repository file://${repo} again`)
    expect(rec.text()).toContain('hello from bash')
  })

  it('ends in error with git output when the branch does not exist', async () => {
    const spec = makeSpec({
      repository: { id: 8, url: `file://${repo}`, branch: 'main', key: { type: 'none' } },
      gitBranch: 'no-such-branch',
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('no-such-branch')
    expect(rec.text()).toContain('Failed updating repository: Command failed: git exited with code')
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('checks out the commit a task asked for and tells it to the script', async () => {
    const source = makeRepo(
      {
        'run.sh':
          'echo "version one commit=$SEMAPHORE_TASK_DETAILS_COMMIT_HASH id=$SEMAPHORE_TASK_DETAILS_ID"\n',
      },
      'First',
    )
    const firstHash = headOf(source)
    writeFileSync(join(source, 'run.sh'), 'echo version two\n')
    execFileSync(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-am', 'Second'],
      {
        cwd: source,
      },
    )
    const spec = makeSpec({
      repository: { id: 13, url: `file://${source}`, branch: 'main', key: { type: 'none' } },
      commitHash: firstHash,
      extraVars: { semaphore_vars: { task_details: { id: 1, username: 'ann', message: '' } } },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('success')
    expect(rec.text()).toContain(`Checkout repository to ${firstHash}`)
    expect(rec.text()).toContain(`version one commit=${firstHash} id=1`)
    expect(rec.commits).toEqual([{ hash: firstHash, message: 'First' }])

    // The next run of the same template follows the branch head again.
    const next = start({ ...spec, commitHash: '' })
    expect(await next.handle.done).toBe('success')
    expect(next.rec.text()).toContain('version two')

    const missing = start({ ...spec, commitHash: 'abcdef1234' })
    expect(await missing.handle.done).toBe('error')
    expect(missing.rec.text()).toContain(
      'Failed to checkout repository to required commit: Command failed: git exited with code',
    )
  })

  it('stops during preparation without starting the app', async () => {
    const spec = makeSpec({
      repository: { id: 9, url: `file://${repo}`, branch: 'main', key: { type: 'none' } },
    })
    const { handle, rec } = start(spec)
    handle.stop(false)
    expect(await handle.done).toBe('stopped')
    expect(rec.text()).not.toContain('hello from bash')
  })
})

describe('buildShellCommand', () => {
  it('passes the task details as SEMAPHORE_TASK_DETAILS_* variables', () => {
    const details = {
      id: 7,
      username: 'ann',
      message: '',
      url: null,
      type: 'build',
      target_version: '1.0.2',
    }
    const command = buildShellCommand(
      makeSpec({ extraVars: { a: 1, semaphore_vars: { task_details: details } } }),
    )
    expect(command.env).toEqual({
      SEMAPHORE_TASK_DETAILS_ID: '7',
      SEMAPHORE_TASK_DETAILS_USERNAME: 'ann',
      SEMAPHORE_TASK_DETAILS_TYPE: 'build',
      SEMAPHORE_TASK_DETAILS_TARGET_VERSION: '1.0.2',
    })
    expect(command.args).toEqual(['run.sh', 'a=1'])
  })

  it('uses each app program and the configured overrides', () => {
    const base = makeSpec({ playbook: 's', templateArgs: ['t'], taskArgs: ['k'] })
    expect(buildShellCommand({ ...base, app: 'powershell' })).toEqual({
      program: 'pwsh',
      args: ['-File', 's', 't', 'k'],
      env: {},
    })
    expect(buildShellCommand({ ...base, app: 'pulumi', playbook: 'up' }).args).toEqual([
      'up',
      't',
      'k',
    ])
    const custom = buildShellCommand({
      ...base,
      app: 'powershell',
      appPath: '/opt/pwsh',
      appArgs: [],
    })
    expect(custom).toEqual({ program: '/opt/pwsh', args: ['s', 't', 'k'], env: {} })
  })
})
