import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { JobRepository } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { readRemoteHead } from '../src/index.js'
import { headOf, makeBin, makeRepo, tempDir } from './helpers.js'

const NO_KEY = { type: 'none' } as const

function repository(url: string, key: JobRepository['key'] = NO_KEY): JobRepository {
  return { id: 9, url, branch: 'main', key }
}

describe('reading the head of a repository', () => {
  it('answers the commit of the branch of a file URL, and HEAD of a local path', async () => {
    const dir = makeRepo({ 'a.txt': 'a' })
    const main = headOf(dir)
    execFileSync('git', ['checkout', '-q', '-b', 'other'], { cwd: dir })
    const identity = ['-c', 'user.name=T', '-c', 'user.email=t@example.test']
    execFileSync('git', [...identity, 'commit', '-q', '--allow-empty', '-m', 'other'], {
      cwd: dir,
    })
    const other = headOf(dir)
    expect(other).not.toBe(main)
    const workRoot = tempDir('work')
    expect(await readRemoteHead(repository(`file://${dir}`), 'main', { workRoot })).toBe(main)
    expect(await readRemoteHead(repository(`file://${dir}`), 'other', { workRoot })).toBe(other)
    // A local repository is used as it is, so its checked-out HEAD counts.
    expect(await readRemoteHead(repository(dir), 'main', { workRoot })).toBe(other)
    expect(readdirSync(workRoot)).toEqual([])
  })

  it("fails with git's reason, or when the branch does not exist", async () => {
    const dir = makeRepo({ 'a.txt': 'a' })
    const workRoot = tempDir('work')
    await expect(
      readRemoteHead(repository(`file://${dir}`), 'missing', { workRoot }),
    ).rejects.toThrow(`The repository file://${dir} has no refs/heads/missing`)
    await expect(
      readRemoteHead(repository(`file://${dir}-gone`), 'main', { workRoot }),
    ).rejects.toThrow(/^Command failed: git exited with code 128: .*gone/)
    expect(readdirSync(workRoot)).toEqual([])
  })

  it('answers http basic auth with the login and password key', async () => {
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
    const url = `http://127.0.0.1:${String(port)}/team/repo.git`
    const workRoot = tempDir('work')
    try {
      const key = { type: 'login_password', login: 'alice', password: 'pa55-word' } as const
      await expect(readRemoteHead(repository(url, key), 'main', { workRoot })).rejects.toThrow(
        /git exited/,
      )
      expect(seen[0]).toBe('alice:pa55-word')
      expect(readdirSync(workRoot)).toEqual([])
    } finally {
      server.close()
    }
  })

  it('gives ssh the key of the repository and removes it afterwards', async () => {
    const keyDir = tempDir('key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keyDir, 'id')])
    const privateKey = readFileSync(join(keyDir, 'id'), 'utf8')
    const record = join(tempDir('ssh'), 'ssh.txt')
    const bin = makeBin({
      ssh: `#!/bin/bash
echo "ARGS $*" >> "${record}"
echo "MODE $(stat -c %a "$2")" >> "${record}"
echo "remote: denied" >&2
exit 128
`,
    })
    const workRoot = tempDir('work')
    const key = { type: 'ssh', login: 'git', privateKey, passphrase: '' } as const
    await expect(
      readRemoteHead(repository('ssh://git@git.example.test/team/repo.git', key), 'main', {
        workRoot,
        baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempDir('home') },
      }),
    ).rejects.toThrow(/remote: denied/)
    const recorded = readFileSync(record, 'utf8')
    expect(recorded).toMatch(/^ARGS -i \S+\/git_key_9 -o IdentitiesOnly=yes/)
    expect(recorded).toContain('MODE 600')
    expect(readdirSync(workRoot)).toEqual([])
  })

  it('gives up on a repository that does not answer', async () => {
    const bin = makeBin({ ssh: '#!/bin/bash\nexec sleep 30\n' })
    const workRoot = tempDir('work')
    await expect(
      readRemoteHead(repository('ssh://git@git.example.test/team/repo.git'), 'main', {
        workRoot,
        baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempDir('home') },
        timeoutMs: 200,
      }),
    ).rejects.toThrow('took too long')
    expect(readdirSync(workRoot)).toEqual([])
  })
})
