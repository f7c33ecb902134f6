import { execFileSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TempDir } from '../src/files.js'
import { writePrivateKey } from '../src/git.js'
import { makeBin, makeSpec, start, tempDir, workRootEntries } from './helpers.js'

function generateKey(passphrase: string): { privateKey: string; publicKey: string } {
  const dir = tempDir('key')
  const file = join(dir, 'id')
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'test', '-f', file])
  return {
    privateKey: readFileSync(file, 'utf8'),
    publicKey: readFileSync(`${file}.pub`, 'utf8').split(' ').slice(0, 2).join(' '),
  }
}

function publicKeyOf(file: string): string {
  return execFileSync('ssh-keygen', ['-y', '-P', '', '-f', file])
    .toString()
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ')
}

describe('repository credentials', () => {
  it('writes a passphrase-protected key decrypted, with mode 0600', async () => {
    const key = generateKey('correct horse')
    const temp = TempDir.create(join(tempDir('work'), 'p'), 1)
    const file = await writePrivateKey(temp, 'key', key.privateKey, 'correct horse')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(publicKeyOf(file)).toBe(key.publicKey)
    await temp.remove()
  })

  it('ends in error with a clear line when the key passphrase is wrong', async () => {
    const key = generateKey('right')
    const spec = makeSpec({
      repository: {
        id: 4,
        url: 'ssh://git@git.example.test/team/repo.git',
        branch: 'main',
        key: { type: 'ssh', login: 'git', privateKey: key.privateKey, passphrase: 'wrong' },
      },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('Failed to install ssh key:')
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('gives git the ssh key through GIT_SSH_COMMAND and removes it afterwards', async () => {
    const key = generateKey('pass phrase')
    const record = join(tempDir('ssh'), 'ssh.txt')
    // Stand-in ssh: records its argv, the key file's mode and whether the key is usable.
    const bin = makeBin({
      ssh: `#!/bin/bash
echo "ARGS $*" >> "${record}"
key="$2"
echo "MODE $(stat -c %a "$key")" >> "${record}"
echo "PUB $(ssh-keygen -y -P '' -f "$key" | cut -d' ' -f1,2)" >> "${record}"
echo "remote: denied" >&2
exit 128
`,
    })
    const spec = makeSpec({
      repository: {
        id: 4,
        url: 'ssh://git@git.example.test/team/repo.git',
        branch: 'main',
        key: { type: 'ssh', login: 'git', privateKey: key.privateKey, passphrase: 'pass phrase' },
      },
      secretsToMask: ['pass phrase'],
    })
    const { handle, rec } = start(spec, {
      baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempDir('home') },
    })
    expect(await handle.done).toBe('error')
    const recorded = readFileSync(record, 'utf8')
    expect(recorded).toMatch(
      /^ARGS -i \S+\/git_key_4 -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=\/dev\/null/,
    )
    expect(recorded).toContain('MODE 600')
    expect(recorded).toContain(`PUB ${key.publicKey}`)
    expect(rec.text()).toContain('Cloning repository ssh://git@git.example.test/team/repo.git')
    expect(rec.text()).toContain('remote: denied')
    expect(rec.text()).toContain(
      'Failed updating repository: Command failed: git exited with code 128',
    )
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('answers http basic auth through GIT_ASKPASS without exposing the password', async () => {
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
    try {
      const spec = makeSpec({
        repository: {
          id: 5,
          url,
          branch: 'main',
          key: { type: 'login_password', login: 'alice', password: 'pa55-word' },
        },
        secretsToMask: ['pa55-word'],
      })
      const { handle, rec } = start(spec)
      expect(await handle.done).toBe('error')
      expect(seen[0]).toBe('alice:pa55-word')
      expect(rec.text()).toContain(`Cloning repository ${url}`)
      expect(rec.text()).not.toContain('pa55-word')
      expect(workRootEntries(spec.workRoot)).toEqual([])
    } finally {
      server.close()
    }
  })
})
