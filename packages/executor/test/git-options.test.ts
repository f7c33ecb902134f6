import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { JobRepository } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { gitRemote } from '../src/git.js'
import { readRemoteHead } from '../src/index.js'
import { makeBin, makeRepo, makeSpec, start, tempDir } from './helpers.js'

/**
 * URLs and branches come from users: on every git command line they follow `--` (or are the
 * value of an option), so none can be read as an option, and credentials written in an
 * http(s) URL are handed to git through GIT_ASKPASS, never as an argument.
 */

const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim()

/** A `git` first on PATH that records each command line, then runs the real git. */
function recordingGit(): { baseEnv: Record<string, string>; calls: () => string[] } {
  const log = join(tempDir('git-log'), 'calls.txt')
  writeFileSync(log, '')
  const bin = makeBin({
    git: `#!/bin/bash\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realGit}' "$@"\n`,
  })
  return {
    baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempDir('home') },
    calls: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean),
  }
}

const source = makeRepo({ 'run.sh': 'echo "hello from the clone"\n' })

describe('git command lines', () => {
  it('puts -- before the URL and the branch on clone, set-url, fetch and checkout', async () => {
    const git = recordingGit()
    const url = `file://${source}`
    const spec = makeSpec({ repository: { id: 3, url, branch: 'main', key: { type: 'none' } } })
    const first = start(spec, { baseEnv: git.baseEnv })
    expect(await first.handle.done, first.rec.text()).toBe('success')
    const second = start(spec, { baseEnv: git.baseEnv })
    expect(await second.handle.done, second.rec.text()).toBe('success')
    expect(second.rec.text()).toContain('hello from the clone')
    const calls = git.calls()
    expect(calls).toContain(`clone --recursive --branch main -- ${url} repository_3_template_1`)
    expect(calls).toContain(`remote set-url -- origin ${url}`)
    expect(calls).toContain('fetch --prune -- origin')
    expect(calls).toContain('checkout --force -B main origin/main --')
  })

  it('refuses a branch that looks like an option before running git', async () => {
    for (const branch of ['--upload-pack=touch x', '-b', '--orphan']) {
      const git = recordingGit()
      const marker = join(tempDir('canary'), 'created')
      const spec = makeSpec({
        repository: { id: 4, url: `file://${source}`, branch: 'main', key: { type: 'none' } },
        gitBranch: branch.replace('touch x', `touch ${marker}`),
      })
      const { handle, rec } = start(spec, { baseEnv: git.baseEnv })
      expect(await handle.done).toBe('error')
      expect(rec.text()).toMatch(
        /Failed updating repository: branch ".*" is not a valid branch name/,
      )
      expect(git.calls()).toEqual([])
      expect(existsSync(marker)).toBe(false)
    }
  })

  it('refuses a URL that looks like an option, in a task and for a head lookup', async () => {
    const marker = join(tempDir('canary'), 'created')
    for (const url of [
      `--upload-pack=touch ${marker}`,
      '-c',
      `--config=core.sshCommand=touch ${marker}`,
    ]) {
      const git = recordingGit()
      const spec = makeSpec({ repository: { id: 5, url, branch: 'main', key: { type: 'none' } } })
      const { handle, rec } = start(spec, { baseEnv: git.baseEnv })
      expect(await handle.done).toBe('error')
      expect(rec.text()).toContain('Failed updating repository: incorrect URL')
      await expect(
        readRemoteHead({ id: 5, url, branch: 'main', key: { type: 'none' } }, 'main', {
          workRoot: tempDir('work'),
          baseEnv: git.baseEnv,
        }),
      ).rejects.toThrow('Incorrect repository URL')
      expect(git.calls()).toEqual([])
    }
    expect(existsSync(marker)).toBe(false)
  })
})

describe('credentials written in an http URL', () => {
  async function basicAuthServer(): Promise<{ port: number; seen: string[]; close(): void }> {
    const seen: string[] = []
    const server = createServer((req, res) => {
      const auth = req.headers.authorization
      if (auth === undefined) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end()
        return
      }
      seen.push(Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString())
      res.writeHead(403).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    return { port, seen, close: () => server.close() }
  }

  it('reach git through GIT_ASKPASS, not its command line nor the log', async () => {
    const server = await basicAuthServer()
    try {
      const git = recordingGit()
      const bare = `http://127.0.0.1:${String(server.port)}/team/repo.git`
      const url = `http://alice:p%40ss-w0rd-77@127.0.0.1:${String(server.port)}/team/repo.git`
      const spec = makeSpec({
        repository: { id: 6, url, branch: 'main', key: { type: 'none' } },
        secretsToMask: ['p%40ss-w0rd-77', 'p@ss-w0rd-77'],
      })
      const { handle, rec } = start(spec, { baseEnv: git.baseEnv })
      expect(await handle.done).toBe('error')
      expect(server.seen[0]).toBe('alice:p@ss-w0rd-77')
      const calls = git.calls().join('\n')
      expect(calls).toContain(`clone --recursive --branch main -- ${bare} repository_6_template_1`)
      expect(calls).not.toContain('w0rd')
      expect(calls).not.toContain('alice')
      expect(rec.text()).not.toContain('w0rd')

      const lookup = recordingGit()
      await expect(
        readRemoteHead({ id: 6, url, branch: 'main', key: { type: 'none' } }, 'main', {
          workRoot: tempDir('work'),
          baseEnv: lookup.baseEnv,
        }),
      ).rejects.toThrow()
      expect(server.seen[1]).toBe('alice:p@ss-w0rd-77')
      expect(lookup.calls()).toEqual([`ls-remote -- ${bare} refs/heads/main`])
    } finally {
      server.close()
    }
  })

  it('win over a login and password key, as they did when git read them from the URL', async () => {
    const server = await basicAuthServer()
    try {
      const url = `http://bob:url-secret@127.0.0.1:${String(server.port)}/r.git`
      const spec = makeSpec({
        repository: {
          id: 7,
          url,
          branch: 'main',
          key: { type: 'login_password', login: 'alice', password: 'key-secret' },
        },
      })
      const { handle } = start(spec)
      expect(await handle.done).toBe('error')
      expect(server.seen[0]).toBe('bob:url-secret')
    } finally {
      server.close()
    }
  })
})

describe('gitRemote', () => {
  it('takes every password out of the URL git is given', () => {
    const none = { type: 'none' } as const
    const remote = (url: string, key: JobRepository['key'] = none) =>
      gitRemote({ id: 1, url, branch: 'main', key })
    expect(remote('https://alice:s%2Fcret@example.test/r.git')).toEqual({
      url: 'https://example.test/r.git',
      credentials: { login: 'alice', password: 's/cret' },
    })
    expect(remote('https://tok3n@example.test/r.git')).toEqual({
      url: 'https://example.test/r.git',
      credentials: { login: 'tok3n', password: '' },
    })
    expect(
      remote('https://example.test/r.git', { type: 'login_password', login: 'k', password: 'p' }),
    ).toEqual({ url: 'https://example.test/r.git', credentials: { login: 'k', password: 'p' } })
    expect(remote('ssh://git:unused@example.test:22/r.git')).toEqual({
      url: 'ssh://git@example.test:22/r.git',
      credentials: null,
    })
    expect(remote('git@example.test:team/r.git')).toEqual({
      url: 'git@example.test:team/r.git',
      credentials: null,
    })
    expect(remote('file:///srv/r.git').url).toBe('file:///srv/r.git')
  })
})
