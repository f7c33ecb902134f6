import type { JobSpec } from '@flagman/contract'
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeBin, makeRepo, makeSpec, start, tempDir } from './helpers.js'

/**
 * Every path a template or task gives is a path, never an option: it must name an existing
 * file (or folder) inside the checkout once symbolic links are followed, and it reaches the
 * program as an absolute path. Anything else ends the task in error before a process starts.
 */

const outside = tempDir('outside')
writeFileSync(join(outside, 'evil.sh'), 'echo "outside script ran"\n')
mkdirSync(join(outside, 'module'))

const repo = makeRepo({
  'run.sh': 'echo "script is $0"\necho "args:$*"\n',
  'tool.py': 'import sys\nprint("script is", sys.argv[0])\n',
  'scripts/inner.sh': 'echo "inner ran"\n',
  'site.yml': '- hosts: all\n',
  'hosts/prod.ini': 'localhost\n',
  'vault.sh': '#!/bin/sh\necho pw\n',
  'infra/main.tf': '# module\n',
  'deploy.ps1': 'Write-Output hi\n',
})
symlinkSync(join(outside, 'evil.sh'), join(repo, 'escape.sh'))
symlinkSync(outside, join(repo, 'escape-dir'))
symlinkSync('scripts/inner.sh', join(repo, 'inside-link.sh'))
symlinkSync(join(outside, 'module'), join(repo, 'escape-module'))
const realRepo = realpathSync(repo)

const local = { id: 1, url: repo, branch: '', key: { type: 'none' as const } }

/** A file the refused command line would have created, had it ever run. */
function canary(): string {
  return join(tempDir('canary'), 'created')
}

async function runs(overrides: Partial<JobSpec>, baseEnv?: Record<string, string>) {
  const { handle, rec } = start(makeSpec({ repository: local, ...overrides }), { baseEnv })
  return { result: await handle.done, text: rec.text() }
}

describe('script paths of bash and python', () => {
  it('never hands an option-like playbook to the interpreter', async () => {
    for (const [app, code] of [
      ['bash', (file: string) => `touch ${file}`],
      ['python', (file: string) => `open(${JSON.stringify(file)}, "w")`],
    ] as const) {
      for (const playbook of ['-c', '--version', '-', '-cx']) {
        const file = canary()
        const { result, text } = await runs({
          app,
          playbook,
          // What `bash -c` or `python3 -c` would run: the first argument after the playbook.
          templateArgs: [code(file)],
        })
        expect(result, text).toBe('error')
        expect(text).toContain(`Playbook "${playbook}" is not a file in the repository`)
        expect(text).not.toMatch(/GNU bash|Python 3|Command failed/)
        expect(existsSync(file)).toBe(false)
      }
    }
  })

  it('refuses escapes, symbolic links out of the checkout, folders and missing files', async () => {
    const cases: Array<[string, string]> = [
      ['../outside.sh', 'is outside the repository'],
      ['/etc/passwd', 'is outside the repository'],
      ['escape.sh', 'is outside the repository'],
      ['escape-dir/evil.sh', 'is outside the repository'],
      ['scripts', 'is not a file in the repository'],
      ['.', 'is not a file in the repository'],
      ['missing.sh', 'is not a file in the repository'],
      ['', 'is not a file in the repository'],
    ]
    for (const [playbook, reason] of cases) {
      const { result, text } = await runs({ playbook })
      expect(result, text).toBe('error')
      expect(text).toContain(`Playbook "${playbook}" ${reason}`)
      expect(text).not.toContain('outside script ran')
      expect(text).not.toContain('Command failed')
    }
  })

  it('gives the interpreter the absolute path of the script, links inside resolved', async () => {
    const bash = await runs({ playbook: 'run.sh', templateArgs: ['-c', 'x'] })
    expect(bash.result, bash.text).toBe('success')
    expect(bash.text).toContain(`script is ${realRepo}/run.sh`)
    // Arguments after the script belong to the script, even when they look like options.
    expect(bash.text).toContain('args:-c x')
    const python = await runs({ app: 'python', playbook: './tool.py' })
    expect(python.result, python.text).toBe('success')
    expect(python.text).toContain(`script is ${realRepo}/tool.py`)
    const linked = await runs({ playbook: 'inside-link.sh' })
    expect(linked.result, linked.text).toBe('success')
    expect(linked.text).toContain('inner ran')
  })
})

describe('paths of the other apps', () => {
  const RECORDER = `#!/bin/bash
echo "$(basename "$0") $*" >> "$ARGS_FILE"
echo "ran"
`
  const bin = makeBin({
    'ansible-playbook': RECORDER,
    'ansible-galaxy': RECORDER,
    terraform: RECORDER,
    pwsh: RECORDER,
    pulumi: RECORDER,
  })
  const baseEnv = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' }

  function recorded(overrides: Partial<JobSpec>) {
    const argsFile = join(tempDir('args'), 'args.txt')
    const spec = { ...overrides, env: { ARGS_FILE: argsFile, ...overrides.env } }
    return {
      run: () => runs(spec, baseEnv),
      lines: () => (existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim().split('\n') : []),
    }
  }

  const fileInventory = (content: string): NonNullable<JobSpec['inventory']> => ({
    id: 5,
    type: 'file',
    content,
    repository: null,
    sshKey: { type: 'none' },
    becomeKey: { type: 'none' },
  })

  it('ansible: playbook, file inventory and vault script are files of the checkout', async () => {
    const ok = recorded({
      app: 'ansible',
      playbook: 'site.yml',
      inventory: fileInventory('hosts/prod.ini'),
      vaults: [{ name: 'v', type: 'script', password: '', script: 'vault.sh' }],
    })
    const good = await ok.run()
    expect(good.result, good.text).toBe('success')
    expect(ok.lines().at(-1)).toMatch(
      new RegExp(
        `^ansible-playbook -i ${realRepo}/hosts/prod.ini --vault-id v@${realRepo}/vault.sh --extra-vars @\\S+ ${realRepo}/site.yml$`,
      ),
    )
    // An inventory may be a folder of inventory files.
    const folder = recorded({
      app: 'ansible',
      playbook: 'site.yml',
      inventory: fileInventory('hosts'),
    })
    expect((await folder.run()).result).toBe('success')

    const refused: Array<[Partial<JobSpec>, string]> = [
      [{ playbook: '--version' }, 'Playbook "--version" is not a file in the repository'],
      [{ playbook: 'escape.sh' }, 'Playbook "escape.sh" is outside the repository'],
      [{ playbook: 'hosts' }, 'Playbook "hosts" is not a file in the repository'],
      [
        { inventory: fileInventory('escape-dir') },
        'Inventory "escape-dir" is outside the repository',
      ],
      [
        { inventory: fileInventory('--list') },
        'Inventory "--list" is not a file or directory in the repository',
      ],
      [
        { vaults: [{ name: null, type: 'script', password: '', script: 'escape.sh' }] },
        'Vault script "escape.sh" is outside the repository',
      ],
      [
        { vaults: [{ name: null, type: 'script', password: '', script: '-x' }] },
        'Vault script "-x" is not a file in the repository',
      ],
    ]
    for (const [fields, message] of refused) {
      const bad = recorded({ app: 'ansible', playbook: 'site.yml', ...fields })
      const { result, text } = await bad.run()
      expect(result, text).toBe('error')
      expect(text).toContain(message)
      expect(bad.lines()).toEqual([])
    }
  })

  it('terraform: the module is a folder of the checkout; a workspace is never an option', async () => {
    const planOnly = { ...makeSpec().terraform, plan: true }
    const ok = recorded({ app: 'terraform', playbook: 'infra', terraform: planOnly })
    const good = await ok.run()
    expect(good.result, good.text).toBe('success')
    expect(ok.lines().at(-1)).toBe('terraform plan -lock=false')
    const refused: Array<[Partial<JobSpec>, string]> = [
      [{ playbook: 'infra/main.tf' }, 'Playbook "infra/main.tf" is not a directory'],
      [{ playbook: 'escape-module' }, 'Playbook "escape-module" is outside the repository'],
      [{ playbook: '-chdir=/' }, 'Playbook "-chdir=/" is not a directory'],
      [{ playbook: 'missing' }, 'Playbook "missing" is not a directory'],
      [
        {
          playbook: 'infra',
          inventory: { ...fileInventory('-lock=false'), type: 'terraform-workspace' },
        },
        'Workspace "-lock=false" can not start with "-"',
      ],
    ]
    for (const [fields, message] of refused) {
      const bad = recorded({ app: 'terraform', terraform: planOnly, ...fields })
      const { result, text } = await bad.run()
      expect(result, text).toBe('error')
      expect(text).toContain(message)
      expect(bad.lines()).toEqual([])
    }
  })

  it('powershell gets the absolute script after -File; pulumi words are never options', async () => {
    const ps = recorded({ app: 'powershell', playbook: 'deploy.ps1' })
    expect((await ps.run()).result).toBe('success')
    expect(ps.lines()).toEqual([`pwsh -File ${realRepo}/deploy.ps1`])
    const psBad = recorded({ app: 'powershell', playbook: '-Command' })
    expect((await psBad.run()).text).toContain('Playbook "-Command" is not a file')
    expect(psBad.lines()).toEqual([])

    const pulumi = recorded({ app: 'pulumi', playbook: 'up' })
    expect((await pulumi.run()).result).toBe('success')
    expect(pulumi.lines()).toEqual(['pulumi up'])
    for (const playbook of ['--cwd=/', '-C']) {
      const bad = recorded({ app: 'pulumi', playbook })
      const { result, text } = await bad.run()
      expect(result).toBe('error')
      expect(text).toContain(`Playbook "${playbook}" can not start with "-"`)
      expect(bad.lines()).toEqual([])
    }
    const escaping = recorded({ app: 'pulumi', playbook: '../up' })
    expect((await escaping.run()).text).toContain('Playbook "../up" is outside the repository')
  })

  it('an administrator app runs its playbook as a script path', async () => {
    const custom = recorded({ app: 'deployer', appPath: join(bin, 'pulumi'), playbook: 'run.sh' })
    expect((await custom.run()).result).toBe('success')
    expect(custom.lines()).toEqual([`pulumi ${realRepo}/run.sh`])
    const bad = recorded({ app: 'deployer', appPath: join(bin, 'pulumi'), playbook: '-e' })
    expect((await bad.run()).text).toContain('Playbook "-e" is not a file in the repository')
    expect(bad.lines()).toEqual([])
  })
})
