import type { JobSpec } from '@flagman/contract'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildAnsibleArgs, buildAnsibleExtraVars } from '../src/index.js'
import { makeBin, makeRepo, makeSpec, start, tempDir, workRootEntries } from './helpers.js'

const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g')
const plain = (text: string): string => text.replace(ANSI, '')

function vaultedVar(): string {
  const dir = tempDir('vault')
  const passwordFile = join(dir, 'password')
  writeFileSync(passwordFile, 'vault-pass-123\n')
  return execFileSync('ansible-vault', [
    'encrypt_string',
    '--vault-password-file',
    passwordFile,
    'decrypted-vault-value',
    '--name',
    'vaulted_var',
  ]).toString()
}

const PLAYBOOK = `- hosts: all
  gather_facts: false
  vars_files:
    - vars/vault.yml
  tasks:
    - name: greet
      debug:
        msg: "greeting={{ greeting }} number={{ number }} vaulted={{ vaulted_var }} pass={{ db_pass }} vs={{ vs }}"
      tags: [greet]
    - name: not selected
      debug:
        msg: "should-not-run"
      tags: [other]
`

const inventory = (content: string): NonNullable<JobSpec['inventory']> => ({
  id: 5,
  type: 'static',
  content,
  repository: null,
  sshKey: { type: 'none' },
  becomeKey: { type: 'none' },
})

describe('ansible-playbook against localhost', () => {
  it('runs with inventory, extra vars, tags and a password vault', async () => {
    const repo = makeRepo({ 'site.yml': PLAYBOOK, 'vars/vault.yml': vaultedVar() })
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'site.yml',
      repository: { id: 3, url: repo, branch: '', key: { type: 'none' } },
      inventory: inventory('localhost ansible_connection=local\n'),
      extraVars: { greeting: 'hello', number: 42 },
      secretVars: { db_pass: 'hunter2' },
      varSecrets: [{ name: 'vs', value: 'var-secret' }],
      vaults: [{ name: null, type: 'password', password: 'vault-pass-123', script: '' }],
      ansible: { ...makeSpec().ansible, tags: ['greet'] },
      templateArgs: ['-c', 'local'],
      secretsToMask: ['hunter2'],
    })
    const { handle, rec } = start(spec)
    const result = await handle.done
    const text = plain(rec.text())
    expect(result, text).toBe('success')
    expect(text).toContain(
      'greeting=hello number=42 vaulted=decrypted-vault-value pass=**** vs=var-secret',
    )
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('should-not-run')
    expect(text).toContain('No collection requirements file found. Skip galaxy install process.')
    expect(text).toContain('ok=1')
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('ends in error when the playbook fails', async () => {
    const repo = makeRepo({
      'fail.yml': '- hosts: all\n  gather_facts: false\n  tasks:\n    - fail:\n        msg: boom\n',
    })
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'fail.yml',
      repository: { id: 3, url: repo, branch: '', key: { type: 'none' } },
      inventory: inventory('localhost ansible_connection=local\n'),
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(plain(rec.text())).toContain('boom')
    expect(rec.text()).toContain('Command failed: ansible-playbook exited with code 2')
  })
})

describe('ansible files and command line', () => {
  /** A stand-in that records its argv and the content and mode of every file it was given. */
  const RECORDER = `#!/bin/bash
echo "$(basename "$0") $*" >> "$ARGS_FILE"
echo "$ANSIBLE_FORCE_COLOR $ANSIBLE_HOST_KEY_CHECKING $PYTHONUNBUFFERED" > "$ARGS_FILE.env"
for a in "$@"; do
  f="\${a#@}"; f="\${f#*@}"
  if [ -f "$f" ] && [[ "$f" == "$WORK_ROOT"* ]]; then
    echo "FILE $(basename "$f") $(stat -c %a "$f") $(cat "$f" | tr '\\n' '|')" >> "$ARGS_FILE"
  fi
done
`
  const bin = makeBin({ 'ansible-playbook': RECORDER, 'ansible-galaxy': RECORDER })

  it('materialises secrets in 0600 files and never on the command line', async () => {
    const repo = makeRepo({
      'play/site.yml': '- hosts: all\n',
      'play/collections/requirements.yml': 'collections: []\n',
      'roles/requirements.yml': 'roles: []\n',
      'vault-client.sh': '#!/bin/sh\necho pw\n',
    })
    const argsFile = join(tempDir('args'), 'args.txt')
    const workRoot = join(tempDir('work'), 'project_2')
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'play/site.yml',
      workRoot,
      repository: { id: 3, url: repo, branch: '', key: { type: 'none' } },
      inventory: {
        ...inventory('all:\n  hosts:\n    localhost: {}\n'),
        type: 'static-yaml',
        sshKey: { type: 'login_password', login: 'deploy', password: 'ssh-pass' },
        becomeKey: { type: 'login_password', login: 'root', password: 'become-pass' },
      },
      extraVars: { a: 1 },
      vaults: [
        { name: 'prod', type: 'password', password: 'vault-pass', script: '' },
        { name: null, type: 'script', password: '', script: 'vault-client.sh' },
      ],
      env: { ARGS_FILE: argsFile, WORK_ROOT: workRoot, ANSIBLE_HOST_KEY_CHECKING: 'True' },
    })
    const { handle, rec } = start(spec, {
      baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' },
    })
    expect(await handle.done, rec.text()).toBe('success')
    const lines = readFileSync(argsFile, 'utf8').trim().split('\n')
    const commands = lines.filter((l) => !l.startsWith('FILE '))
    const tmp = /\/task_1_tmp_[^/ ]+/g
    expect(commands.map((l) => l.replace(tmp, '/TMP'))).toEqual([
      `ansible-galaxy collection install -r ${repo}/play/collections/requirements.yml --force`,
      `ansible-galaxy role install -r ${repo}/roles/requirements.yml --force`,
      `ansible-playbook -i ${workRoot}/TMP/inventory_5.yml --vault-id prod@${workRoot}/TMP/vault_0 --vault-id default@${repo}/vault-client.sh --extra-vars @${workRoot}/TMP/extra_vars.json ${repo}/play/site.yml`,
    ])
    const files = lines.filter((l) => l.startsWith('FILE '))
    expect(files).toEqual([
      'FILE inventory_5.yml 600 all:|  hosts:|    localhost: {}|',
      'FILE vault_0 600 vault-pass',
      `FILE extra_vars.json 600 ${JSON.stringify({
        ansible_user: 'deploy',
        ansible_password: 'ssh-pass',
        ansible_become_user: 'root',
        ansible_become_password: 'become-pass',
        a: 1,
      })}`,
    ])
    expect(commands.join('\n')).not.toMatch(/ssh-pass|become-pass|vault-pass/)
    expect(readFileSync(`${argsFile}.env`, 'utf8')).toBe('True True 1\n')
    expect(workRootEntries(workRoot)).toEqual([])
  })

  it('uses a file inventory from its own repository clone', async () => {
    const repo = makeRepo({ 'site.yml': '- hosts: all\n' })
    const inventoryRepo = makeRepo({ 'hosts/prod.ini': 'localhost\n' })
    const argsFile = join(tempDir('args'), 'args.txt')
    const workRoot = join(tempDir('work'), 'project_3')
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'site.yml',
      workRoot,
      repository: { id: 3, url: repo, branch: '', key: { type: 'none' } },
      inventory: {
        ...inventory('hosts/prod.ini'),
        type: 'file',
        repository: {
          id: 6,
          url: `file://${inventoryRepo}`,
          branch: 'main',
          key: { type: 'none' },
        },
      },
      env: { ARGS_FILE: argsFile, WORK_ROOT: workRoot },
    })
    const { handle, rec } = start(spec, {
      baseEnv: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' },
    })
    expect(await handle.done, rec.text()).toBe('success')
    const commands = readFileSync(argsFile, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('ansible-playbook'))
    expect(commands[0]).toMatch(
      new RegExp(
        `^ansible-playbook -i ${workRoot}/repository_6_inventory_5/hosts/prod.ini --extra-vars @\\S+ ${repo}/site.yml$`,
      ),
    )
    expect(workRootEntries(workRoot)).toEqual(['repository_6_inventory_5'])
  })

  it('refuses a file inventory outside the repository', async () => {
    const repo = makeRepo({ 'site.yml': '- hosts: all\n' })
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'site.yml',
      repository: { id: 3, url: repo, branch: '', key: { type: 'none' } },
      inventory: { ...inventory('../../etc/hosts'), type: 'file' },
    })
    const { handle, rec } = start(spec)
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('Inventory "../../etc/hosts" is outside the repository')
  })

  it('orders every argument like the compatible system', () => {
    const spec = makeSpec({
      app: 'ansible',
      playbook: 'site.yml',
      inventory: {
        ...inventory(''),
        sshKey: { type: 'ssh', login: 'deploy', privateKey: 'k', passphrase: '' },
      },
      ansible: {
        debug: true,
        debugLevel: 3,
        dryRun: true,
        diff: true,
        limit: ['web', 'db'],
        tags: ['a', 'b'],
        skipTags: ['c'],
      },
      templateArgs: ['--forks=2'],
      taskArgs: ['--flush-cache'],
    })
    expect(
      buildAnsibleArgs(spec, {
        inventory: '/t/inventory_5',
        privateKey: '/t/key',
        extraVars: '/t/vars.json',
        vaultIds: ['default@/t/vault_0'],
      }),
    ).toEqual([
      '-i',
      '/t/inventory_5',
      '--private-key',
      '/t/key',
      '--user',
      'deploy',
      '-vvv',
      '--diff',
      '--check',
      '--vault-id',
      'default@/t/vault_0',
      '--extra-vars',
      '@/t/vars.json',
      '--forks=2',
      '--limit=web,db',
      '--tags=a,b',
      '--skip-tags=c',
      '--flush-cache',
      'site.yml',
    ])
  })

  it('lets task values and secrets win in the extra vars', () => {
    const spec = makeSpec({
      extraVars: { x: 'env', y: 'env', semaphore_vars: { task_details: { id: 1 } } },
      secretVars: { y: 'secret' },
      varSecrets: [{ name: 'z', value: 'var-secret' }],
    })
    expect(buildAnsibleExtraVars(spec)).toEqual({
      x: 'env',
      y: 'secret',
      semaphore_vars: { task_details: { id: 1 } },
      z: 'var-secret',
    })
  })
})
