import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, TaskProject } from '../support/tasks.js'

/**
 * An environment secret of type `var` once reached bash as a `name=value` argument, where
 * `ps` shows it to every user of the machine. It must reach the script only through its
 * environment; and what the script prints of it, plain or encoded, is masked in the log.
 */

/** Every command line on the machine, as `ps` and /proc show them. */
function allCommandLines(): string {
  const ps = execFileSync('ps', ['-eo', 'args'], { maxBuffer: 64 * 1024 * 1024 }).toString()
  const proc: string[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      proc.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '))
    } catch {
      // The process has ended meanwhile.
    }
  }
  return `${ps}\n${proc.join('\n')}`
}

const SCRIPT = `echo "pid $$"
while [ ! -e "$GO" ]; do sleep 0.05; done
printf 'sha:%s\\n' "$(printf '%s' "$token" | sha256sum | cut -d' ' -f1)"
printf 'plain:%s\\n' "$token"
printf 'base64:%s\\n' "$(printf '%s' "$token" | base64 -w0)"
printf 'base64url:%s\\n' "$(printf '%s' "$token" | base64 -w0 | tr '+/' '-_' | tr -d '=')"
printf 'basic:%s\\n' "$(printf 'deploy:%s' "$token" | base64 -w0)"
python3 -c 'import os, urllib.parse as u; t = os.environ["token"]; print("url:" + u.quote(t, safe="")); print("form:" + u.quote_plus(t))'
`

describe.each(dialects())('var secrets and the process table on %s', (dialect) => {
  let server: TestServer
  let world: World
  let scratch: string
  let tp: TaskProject

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'flagman-attack-secrets-'))
    const repo = join(scratch, 'repo')
    execFileSync('git', ['init', '-q', '-b', 'main', repo])
    writeFileSync(join(repo, 'hold.sh'), SCRIPT)
    execFileSync('git', ['add', '.'], { cwd: repo })
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'hold'],
      { cwd: repo },
    )
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  it('keeps a var secret out of every command line, gives it to the script, masks its forms', async () => {
    // Characters that base64, URL and form encoding all write differently.
    const marker = `mk/${randomBytes(12).toString('hex')}+ &=?~>`
    const go = join(scratch, unique('go'))
    const environment = await tp.p.environment(unique('env'), {
      env: JSON.stringify({ GO: go }),
      secrets: [{ operation: 'create', type: 'var', name: 'token', secret: marker }],
    })
    const template = await tp.template('hold.sh', { environment_id: environment.id })
    const task = await tp.run(template)
    await tp.waitForLine(task.id, /^pid \d+$/)
    const pid = Number((await tp.lines(task.id)).find((l) => /^pid \d+$/.test(l))?.slice(4))

    const commandLines = allCommandLines()
    const environ = readFileSync(`/proc/${String(pid)}/environ`, 'utf8').split('\0')
    writeFileSync(go, '')
    const done = await tp.waitFor(task.id)
    const lines = await tp.lines(task.id)
    expect(done.status, lines.join('\n')).toBe('success')

    expect(commandLines).toContain('hold.sh')
    expect(commandLines).not.toContain(marker)
    expect(commandLines).not.toContain(marker.slice(3, 27))
    expect(environ).toContain(`token=${marker}`)

    const hash = execFileSync('sha256sum', { input: marker }).toString().split(' ')[0]
    expect(lines).toContain(`sha:${hash ?? ''}`)
    const mask = lines.find((l) => l.startsWith('plain:'))?.slice('plain:'.length) ?? ''
    expect(mask).toMatch(/^\*+$/)
    for (const prefix of ['plain', 'base64', 'base64url', 'url', 'form']) {
      expect(lines, prefix).toContain(`${prefix}:${mask}`)
    }
    // In `deploy:{secret}` encoded at once, only the characters shared with `deploy:` stay.
    const basic = lines.find((l) => l.startsWith('basic:')) ?? ''
    expect(basic).toContain(mask)
    expect(basic.length).toBeLessThan(
      `basic:${Buffer.from(`deploy:${marker}`).toString('base64')}`.length - 30,
    )
    const stored = lines.join('\n')
    for (const form of [
      marker,
      Buffer.from(marker).toString('base64'),
      Buffer.from(marker).toString('base64url'),
      encodeURIComponent(marker),
      new URLSearchParams({ t: marker }).toString().slice(2),
    ]) {
      expect(stored).not.toContain(form)
    }
  })
})
