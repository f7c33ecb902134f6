import type { JobSpec } from '@flagman/contract'
import type { AppCommand } from './common.js'

/** Files the executor materialised for one ansible run. */
export interface AnsibleFiles {
  /** Inventory path for `-i`, or null without an inventory. */
  inventory: string | null
  /** Private key file of an ssh inventory key. */
  privateKey: string | null
  /** JSON file holding every extra, secret and connection variable. */
  extraVars: string
  /** `--vault-id` values (`{name}@{file or script}`), in template order. */
  vaultIds: string[]
}

export const ANSIBLE_ENV: Record<string, string> = {
  ANSIBLE_FORCE_COLOR: 'True',
  ANSIBLE_HOST_KEY_CHECKING: 'False',
  PYTHONUNBUFFERED: '1',
}

/**
 * All variables for the one `--extra-vars @file`, lowest precedence first: connection
 * credentials from the inventory keys, extra vars, secret survey vars, then var secrets.
 */
export function buildAnsibleExtraVars(spec: JobSpec): Record<string, unknown> {
  const vars: Record<string, unknown> = {}
  const ssh = spec.inventory?.sshKey
  if (ssh?.type === 'login_password') {
    if (ssh.login !== '') vars.ansible_user = ssh.login
    if (ssh.password !== '') vars.ansible_password = ssh.password
  }
  const become = spec.inventory?.becomeKey
  if (become?.type === 'login_password') {
    if (become.login !== '') vars.ansible_become_user = become.login
    if (become.password !== '') vars.ansible_become_password = become.password
  }
  Object.assign(vars, spec.extraVars, spec.secretVars)
  for (const secret of spec.varSecrets) vars[secret.name] = secret.value
  return vars
}

/**
 * ansible-playbook arguments in the compatible order, with deliberate differences so that
 * no secret is ever on the command line and no pseudo-terminal is needed:
 * - extra vars, secret survey vars, var secrets and the login/become passwords all go into
 *   one 0600 JSON file passed as `--extra-vars @file` (instead of `--extra-vars {JSON}`,
 *   `name=value` args, `--ask-pass` and `--ask-become-pass`);
 * - password vaults use `--vault-id {name}@{0600 file}` instead of answering a prompt;
 * - an ssh inventory key is a 0600 file given with `--private-key` instead of an ssh-agent.
 */
export function buildAnsibleArgs(spec: JobSpec, files: AnsibleFiles): string[] {
  const args: string[] = []
  if (files.inventory !== null) args.push('-i', files.inventory)
  const ssh = spec.inventory?.sshKey
  if (ssh?.type === 'ssh') {
    if (files.privateKey !== null) args.push('--private-key', files.privateKey)
    if (ssh.login !== '') args.push('--user', ssh.login)
  }
  const { ansible } = spec
  if (ansible.debug) {
    const level = ansible.debugLevel > 0 ? Math.min(ansible.debugLevel, 6) : 4
    args.push(`-${'v'.repeat(level)}`)
  }
  if (ansible.diff) args.push('--diff')
  if (ansible.dryRun) args.push('--check')
  for (const id of files.vaultIds) args.push('--vault-id', id)
  args.push('--extra-vars', `@${files.extraVars}`)
  args.push(...spec.templateArgs)
  if (ansible.limit.length > 0) args.push(`--limit=${ansible.limit.join(',')}`)
  if (ansible.tags.length > 0) args.push(`--tags=${ansible.tags.join(',')}`)
  if (ansible.skipTags.length > 0) args.push(`--skip-tags=${ansible.skipTags.join(',')}`)
  args.push(...spec.taskArgs)
  args.push(spec.playbook)
  return args
}

export function buildAnsibleCommand(spec: JobSpec, files: AnsibleFiles): AppCommand {
  const program = spec.appPath !== '' ? spec.appPath : 'ansible-playbook'
  return {
    program,
    args: [...(spec.appArgs ?? []), ...buildAnsibleArgs(spec, files)],
    env: { ...ANSIBLE_ENV },
  }
}
