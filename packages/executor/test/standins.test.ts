import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { JobSpec } from '@flagman/contract'
import { buildTerraformCommands } from '../src/index.js'
import { makeBin, makeRepo, makeSpec, start, tempDir, workRootEntries } from './helpers.js'

/** Records "{program} {args}" and its cwd, then prints output chosen by FAKE_* variables. */
const FAKE = `#!/bin/bash
echo "$(basename "$0") $*" >> "$ARGS_FILE"
echo "$PWD" >> "$ARGS_FILE.cwd"
case "$1" in
  init)
    if [ "$FAKE_MIGRATE" = 1 ]; then
      echo "Do you want to copy existing state to the new backend?"
      printf 'Enter a value: '
      read -r reply
      echo "answered $reply"
      if [ "$reply" != yes ]; then echo "Migration aborted by user." >&2; exit 1; fi
    fi
    echo "Terraform has been successfully initialized!" ;;
  workspace)
    if [ "$2" = list ] && [ "$FAKE_NO_WORKSPACES" = 1 ]; then echo "no workspaces" >&2; exit 1; fi
    echo "* default" ;;
  plan)
    if [ "$FAKE_CHANGES" = 1 ]; then echo "Plan: 1 to add, 0 to change, 0 to destroy."
    else echo "No changes. Your infrastructure matches the configuration."; fi ;;
  apply) echo "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." ;;
  *) echo "ran $*" ;;
esac
`

const bin = makeBin({ terraform: FAKE, tofu: FAKE, pulumi: FAKE, pwsh: FAKE })
const repo = makeRepo({ 'infra/main.tf': '# module\n', 'deploy.ps1': 'Write-Output hi\n' })
mkdirSync(join(repo, 'empty'), { recursive: true })
const baseEnv = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' }

function tfSpec(
  overrides: Partial<JobSpec>,
  env: Record<string, string> = {},
): {
  spec: JobSpec
  argsFile: string
} {
  const argsFile = join(tempDir('args'), 'args.txt')
  const spec = makeSpec({
    app: 'terraform',
    playbook: 'infra',
    repository: { id: 2, url: repo, branch: '', key: { type: 'none' } },
    env: { ARGS_FILE: argsFile, ...env },
    ...overrides,
  })
  return { spec, argsFile }
}

function recorded(argsFile: string): string[] {
  return readFileSync(argsFile, 'utf8').trim().split('\n')
}

describe('terraform and tofu', () => {
  it('ends in success without apply when the plan has no changes', async () => {
    const { spec, argsFile } = tfSpec({
      extraVars: { region: 'eu', count: 2, semaphore_vars: { task_details: {} } },
      varSecrets: [{ name: 'token', value: 'tok' }],
      templateArgs: ['-parallelism=2'],
      taskArgs: ['-compact-warnings'],
    })
    const { handle, rec } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile)).toEqual([
      'terraform init -lock=false -migrate-state',
      'terraform workspace list',
      'terraform workspace select -or-create=true default',
      'terraform plan -lock=false -parallelism=2 -compact-warnings -var region=eu -var count=2',
    ])
    const cwds = new Set(readFileSync(`${argsFile}.cwd`, 'utf8').trim().split('\n'))
    expect([...cwds]).toEqual([join(repo, 'infra')])
    expect(rec.statuses).toEqual(['running'])
    expect(rec.text()).toContain('No changes.')
    expect(rec.lines.at(-1)?.output).toBe('Task finished: success')
    expect(workRootEntries(spec.workRoot)).toEqual([])
  })

  it('waits for confirmation and applies after confirm', async () => {
    const { spec, argsFile } = tfSpec({}, { FAKE_CHANGES: '1' })
    const { handle, rec } = start(spec, { baseEnv }, (status, h) => {
      if (status === 'waiting_confirmation') h.confirm()
    })
    expect(await handle.done).toBe('success')
    expect(rec.statuses).toEqual(['running', 'waiting_confirmation', 'running'])
    expect(recorded(argsFile).at(-1)).toBe('terraform apply -auto-approve -lock=false')
    expect(rec.text()).toContain('Apply complete!')
  })

  it('ends in error without apply after reject', async () => {
    const { spec, argsFile } = tfSpec({}, { FAKE_CHANGES: '1' })
    const { handle, rec } = start(spec, { baseEnv }, (status, h) => {
      if (status === 'waiting_confirmation') h.reject()
    })
    expect(await handle.done).toBe('error')
    expect(recorded(argsFile).some((l) => l.includes('apply'))).toBe(false)
    expect(rec.text()).toContain('Plan rejected')
    expect(rec.lines.at(-1)?.output).toBe('Task finished: error')
  })

  it('ends stopped when stopped while waiting for confirmation', async () => {
    const { spec, argsFile } = tfSpec({}, { FAKE_CHANGES: '1' })
    const { handle } = start(spec, { baseEnv }, (status, h) => {
      if (status === 'waiting_confirmation') h.stop(false)
    })
    expect(await handle.done).toBe('stopped')
    expect(recorded(argsFile).some((l) => l.includes('apply'))).toBe(false)
  })

  it('asks for confirmation before init migrates the state, and answers the question', async () => {
    const confirmed = tfSpec({}, { FAKE_MIGRATE: '1' })
    const yes = start(confirmed.spec, { baseEnv }, (status, h) => {
      if (status === 'waiting_confirmation') h.confirm()
    })
    expect(await yes.handle.done).toBe('success')
    expect(yes.rec.statuses).toEqual(['running', 'waiting_confirmation', 'running'])
    expect(yes.rec.text()).toContain('answered yes')
    expect(recorded(confirmed.argsFile)[0]).toBe('terraform init -lock=false -migrate-state')
    expect(recorded(confirmed.argsFile).at(-1)).toBe('terraform plan -lock=false')

    const rejected = tfSpec({}, { FAKE_MIGRATE: '1' })
    const no = start(rejected.spec, { baseEnv }, (status, h) => {
      if (status === 'waiting_confirmation') h.reject()
    })
    expect(await no.handle.done).toBe('error')
    expect(no.rec.text()).toContain('answered no')
    expect(no.rec.text()).toContain('Migration aborted by user.')
    expect(recorded(rejected.argsFile)).toEqual(['terraform init -lock=false -migrate-state'])
  })

  it('runs tofu destroy with auto-approve, upgrade, reconfigure and a workspace', async () => {
    const { spec, argsFile } = tfSpec(
      {
        app: 'tofu',
        playbook: '/infra',
        terraform: {
          plan: false,
          destroy: true,
          autoApprove: true,
          upgrade: true,
          reconfigure: true,
          backend: null,
        },
        inventory: {
          id: 4,
          type: 'tofu-workspace',
          content: 'staging',
          repository: null,
          sshKey: { type: 'none' },
          becomeKey: { type: 'none' },
        },
        extraVars: { a: 'b' },
      },
      { FAKE_CHANGES: '1' },
    )
    const { handle, rec } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile)).toEqual([
      'tofu init -lock=false -upgrade -reconfigure',
      'tofu workspace list',
      'tofu workspace select -or-create=true staging',
      'tofu plan -lock=false -destroy -var a=b',
      'tofu apply -auto-approve -lock=false -destroy -var a=b',
    ])
    expect(rec.statuses).toEqual(['running'])
  })

  it('stops after the plan when the plan param is set', async () => {
    const { spec, argsFile } = tfSpec(
      {
        terraform: {
          plan: true,
          destroy: false,
          autoApprove: true,
          upgrade: false,
          reconfigure: false,
          backend: null,
        },
      },
      { FAKE_CHANGES: '1' },
    )
    const { handle } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile).at(-1)).toBe('terraform plan -lock=false')
  })

  it('skips workspace selection when workspace list fails', async () => {
    const { spec, argsFile } = tfSpec({ playbook: '' }, { FAKE_NO_WORKSPACES: '1' })
    const { handle } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile)).toEqual([
      'terraform init -lock=false -migrate-state',
      'terraform workspace list',
      'terraform plan -lock=false',
    ])
  })

  it('refuses a module directory outside the repository', async () => {
    const { spec } = tfSpec({ playbook: '../elsewhere' })
    const { handle, rec } = start(spec, { baseEnv })
    expect(await handle.done).toBe('error')
    expect(rec.text()).toContain('Playbook "../elsewhere" is outside the repository')
  })

  it('builds the apply line with the same arguments as the plan', () => {
    const commands = buildTerraformCommands(
      makeSpec({ app: 'tofu', extraVars: { m: { k: 1 } }, templateArgs: ['-t'], taskArgs: ['-x'] }),
    )
    expect(commands.plan).toEqual(['plan', '-lock=false', '-t', '-x', '-var', 'm={"k":1}'])
    expect(commands.apply).toEqual([
      'apply',
      '-auto-approve',
      '-lock=false',
      '-t',
      '-x',
      '-var',
      'm={"k":1}',
    ])
  })
})

describe('pulumi and powershell', () => {
  it('runs pulumi with the playbook as its first argument', async () => {
    const { spec, argsFile } = tfSpec({
      app: 'pulumi',
      playbook: 'up',
      varSecrets: [{ name: 's', value: 'v' }],
      templateArgs: ['--yes'],
      extraVars: { stack: 'dev' },
      taskArgs: ['--skip-preview'],
    })
    const { handle, rec } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile)).toEqual(['pulumi up --yes stack=dev --skip-preview'])
    expect(readFileSync(`${argsFile}.cwd`, 'utf8').trim()).toBe(repo)
    expect(rec.text()).toContain('ran up --yes')
  })

  it('runs powershell scripts through pwsh -File', async () => {
    const { spec, argsFile } = tfSpec({
      app: 'powershell',
      playbook: 'deploy.ps1',
      taskArgs: ['-Force'],
    })
    const { handle } = start(spec, { baseEnv })
    expect(await handle.done).toBe('success')
    expect(recorded(argsFile)).toEqual([`pwsh -File ${repo}/deploy.ps1 -Force`])
  })
})
