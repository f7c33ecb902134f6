import type { JobSpec } from '@flagman/contract'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildShellCommand, buildTerraformCommands } from '../src/index.js'
import type { Recorded } from './helpers.js'
import { makeBin, makeRepo, makeSpec, start, tempDir, waitForLine } from './helpers.js'

/**
 * Var secrets never reach a command line, where `ps` shows them to every local user: shell
 * apps read them from their environment under their own name, terraform and tofu as
 * TF_VAR_{name}.
 */

const SECRET = 'var-secret-5f2d1c'
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

const repo = makeRepo({
  // Prints its pid, then waits (for the test to read /proc) until the go file exists.
  'hold.sh': `echo "pid $$"
while [ ! -e "$GO" ]; do sleep 0.05; done
echo "args:$*"
printf '%s' "$token" | sha256sum | sed 's/^/sha:/'
echo "other:\${other_token-unset}"
`,
  'hold.py': `import hashlib, os, sys, time
print("pid", os.getpid(), flush=True)
while not os.path.exists(os.environ["GO"]):
    time.sleep(0.05)
print("args:" + " ".join(sys.argv[1:]))
print("sha:" + hashlib.sha256(os.environ["token"].encode()).hexdigest())
`,
})

function nulSeparated(file: string): string[] {
  return readFileSync(file, 'utf8').split('\0')
}

/** The pid the script printed, once it has printed it. */
async function pidOf(rec: Recorded): Promise<number> {
  await waitForLine(rec, 'pid ')
  const line = rec.lines.find((l) => l.output.startsWith('pid '))
  return Number(line?.output.slice(4))
}

describe('var secrets of shell apps', () => {
  for (const [app, playbook] of [
    ['bash', 'hold.sh'],
    ['python', 'hold.py'],
  ] as const) {
    it(`${app}: in the environment of the running process, not in its argv`, async () => {
      const go = join(tempDir('go'), 'go')
      const spec = makeSpec({
        app,
        playbook,
        repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
        env: { GO: go },
        varSecrets: [{ name: 'token', value: SECRET }],
        templateArgs: ['--tpl'],
        extraVars: { plain: 'visible' },
        secretsToMask: [SECRET],
      })
      const { handle, rec } = start(spec)
      const pid = await pidOf(rec)
      const argv = nulSeparated(`/proc/${String(pid)}/cmdline`)
      const environ = nulSeparated(`/proc/${String(pid)}/environ`)
      writeFileSync(go, '')
      expect(await handle.done, rec.text()).toBe('success')
      expect(argv.join(' ')).not.toContain(SECRET)
      expect(argv.some((arg) => arg.endsWith(playbook))).toBe(true)
      expect(environ).toContain(`token=${SECRET}`)
      const text = rec.text()
      expect(text).toContain('args:--tpl plain=visible')
      expect(text).toContain(`sha:${sha(SECRET)}`)
    })
  }

  it('leaves out, with a line in the log, a name the environment cannot carry or already sets', async () => {
    const go = join(tempDir('go'), 'go')
    writeFileSync(go, '')
    const spec = makeSpec({
      playbook: 'hold.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      env: { GO: go, token: 'from-environment' },
      varSecrets: [
        { name: 'token', value: SECRET },
        { name: 'other-token', value: 'x1' },
        { name: '1st', value: 'x2' },
      ],
    })
    const { handle, rec } = start(spec)
    expect(await handle.done, rec.text()).toBe('success')
    const text = rec.text()
    expect(text).toContain(
      'Secret variable "token" is not passed: the environment already sets token',
    )
    expect(text).toContain('Secret variable "other-token" is not passed: it is not a valid')
    expect(text).toContain('Secret variable "1st" is not passed: it is not a valid')
    expect(text).toContain(`sha:${sha('from-environment')}`)
  })

  it('builds no argument from a var secret, for every shell app', () => {
    const base = makeSpec({ playbook: '/repo/s', varSecrets: [{ name: 'k', value: SECRET }] })
    for (const app of ['bash', 'python', 'powershell', 'pulumi', 'deployer']) {
      const command = buildShellCommand({ ...base, app })
      expect(command.args.join(' ')).not.toContain(SECRET)
      expect(command.env.k).toBe(SECRET)
    }
  })
})

describe('var secrets of terraform and tofu', () => {
  const FAKE = `#!/bin/bash
echo "$(basename "$0") $*" >> "$ARGS_FILE"
env | grep '^TF_VAR_' | sort | sed "s/^/$1 /" >> "$ARGS_FILE.env"
case "$1" in
  plan) echo "Plan: 1 to add, 0 to change, 0 to destroy." ;;
esac
`
  const bin = makeBin({ terraform: FAKE, tofu: FAKE })
  const tfRepo = makeRepo({ 'main.tf': '# module\n' })
  const baseEnv = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' }

  function tfSpec(overrides: Partial<JobSpec>): { spec: JobSpec; argsFile: string } {
    const argsFile = join(tempDir('args'), 'args.txt')
    const spec = makeSpec({
      app: 'terraform',
      playbook: '',
      repository: { id: 2, url: tfRepo, branch: '', key: { type: 'none' } },
      env: { ARGS_FILE: argsFile },
      terraform: { ...makeSpec().terraform, autoApprove: true },
      ...overrides,
    })
    return { spec, argsFile }
  }

  it('passes TF_VAR_{name} to every stage and never -var for a secret', async () => {
    const { spec, argsFile } = tfSpec({
      app: 'tofu',
      varSecrets: [
        { name: 'db_password', value: SECRET },
        { name: 'api-key', value: 'k-123456' },
        { name: '-bad', value: 'never' },
      ],
      extraVars: { region: 'eu', db_password: 'overridden by the secret' },
    })
    const { handle, rec } = start(spec, { baseEnv })
    expect(await handle.done, rec.text()).toBe('success')
    const args = readFileSync(argsFile, 'utf8')
    expect(args).not.toContain(SECRET)
    expect(args).not.toContain('k-123456')
    expect(args).not.toContain('overridden by the secret')
    expect(args).toContain('tofu plan -lock=false -var region=eu\n')
    expect(args).toContain('tofu apply -auto-approve -lock=false -var region=eu\n')
    const env = readFileSync(`${argsFile}.env`, 'utf8').trim().split('\n')
    for (const stage of ['init', 'plan', 'apply']) {
      expect(env).toContain(`${stage} TF_VAR_api-key=k-123456`)
      expect(env).toContain(`${stage} TF_VAR_db_password=${SECRET}`)
    }
    expect(env.join('\n')).not.toContain('never')
    expect(rec.text()).toContain('Secret variable "-bad" is not passed: it is not a valid')
  })

  it('keeps secrets out of every stage command line', () => {
    const tf = buildTerraformCommands(
      makeSpec({ app: 'terraform', varSecrets: [{ name: 'token', value: SECRET }] }),
    )
    for (const args of [tf.init, tf.workspaceSelect, tf.plan, tf.apply]) {
      expect(args.join(' ')).not.toContain(SECRET)
    }
    expect(tf.env).toEqual({ TF_VAR_token: SECRET })
  })
})
