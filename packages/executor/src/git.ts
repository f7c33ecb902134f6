import type { JobRepository } from '@flagman/contract'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sshpk from 'sshpk'
import { TempDir } from './files.js'
import type { LineSink } from './output.js'
import type { CommandResult } from './process.js'
import {
  defaultBaseEnv,
  describeFailure,
  ProcessControl,
  runCaptured,
  runLogged,
} from './process.js'

export class PreparationError extends Error {}

export interface RepositoryContext {
  workRoot: string
  temp: TempDir
  baseEnv: Record<string, string>
  control: ProcessControl
  sink: LineSink
}

/** Helper for GIT_ASKPASS: answers git's prompts from variables only git receives. */
const ASKPASS_SCRIPT = `#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$FLAGMAN_GIT_LOGIN" ;;
  *) printf '%s\\n' "$FLAGMAN_GIT_PASSWORD" ;;
esac
`

/**
 * Writes an ssh private key to a 0600 file. A passphrase-protected key is decrypted in
 * process and written as an unencrypted OpenSSH key, so the passphrase never reaches a
 * command line.
 */
export async function writePrivateKey(
  temp: TempDir,
  name: string,
  privateKey: string,
  passphrase: string,
): Promise<string> {
  let text = privateKey
  if (passphrase !== '') {
    try {
      text = sshpk.parsePrivateKey(privateKey, 'auto', { passphrase }).toString('openssh')
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new PreparationError(`Failed to install ssh key: ${reason}`)
    }
  }
  if (!text.endsWith('\n')) text += '\n'
  return temp.write(name, text)
}

/** Transports git may use: no `ext::`/`fd::` helpers, which run commands named in the URL. */
const ALLOWED_PROTOCOLS = 'file:git:http:https:ssh'

/** What git is given for a repository: the URL without credentials, and the credentials. */
export interface GitRemote {
  /**
   * The URL for git's command line: an http(s) URL loses its `user:password@` part, an ssh
   * URL its password.
   */
  url: string
  /** Answers to git's Username and Password prompts; null when git must not be asked. */
  credentials: { login: string; password: string } | null
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Splits the credentials off an http(s) URL so that they never reach a command line (where
 * `ps` shows them to every local user) nor the clone's `.git/config`: git gets the bare URL
 * and asks for the login and password, which GIT_ASKPASS answers from its environment.
 * Credentials written in the URL win over a login and password key, as they did for git.
 */
export function gitRemote(repo: JobRepository): GitRemote {
  const key = repo.key
  const fromKey =
    key.type === 'login_password' ? { login: key.login, password: key.password } : null
  // ssh never uses a password written in the URL: it is only dropped.
  const ssh = /^(ssh:\/\/[^/?#@:]*):[^/?#@]*@(.*)$/is.exec(repo.url)
  if (ssh !== null) return { url: `${ssh[1] ?? ''}@${ssh[2] ?? ''}`, credentials: null }
  const http = /^(https?:\/\/)([^/?#@]*)@(.*)$/is.exec(repo.url)
  if (http === null) {
    return { url: repo.url, credentials: /^https?:\/\//i.test(repo.url) ? fromKey : null }
  }
  const [, scheme = '', userinfo = '', rest = ''] = http
  const colon = userinfo.indexOf(':')
  const login = decoded(colon === -1 ? userinfo : userinfo.slice(0, colon))
  const password = colon === -1 ? (fromKey?.password ?? '') : decoded(userinfo.slice(colon + 1))
  return { url: `${scheme}${rest}`, credentials: { login, password } }
}

/** A branch git would read as an option (`--branch` and `-B` take the next word whatever it is). */
function checkBranch(branch: string): void {
  if (branch.startsWith('-')) {
    throw new PreparationError(
      `Failed updating repository: branch "${branch}" is not a valid branch name`,
    )
  }
}

/** Environment for git: the base env plus credentials, never the task's own variables. */
async function gitEnv(
  repo: JobRepository,
  remote: GitRemote,
  ctx: Pick<RepositoryContext, 'temp' | 'baseEnv'>,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    ...ctx.baseEnv,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
  }
  const key = repo.key
  if (key.type === 'ssh') {
    const file = await writePrivateKey(
      ctx.temp,
      `git_key_${String(repo.id)}`,
      key.privateKey,
      key.passphrase,
    )
    env.GIT_SSH_COMMAND = `ssh -i '${file}' -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`
  }
  if (remote.credentials !== null) {
    env.GIT_ASKPASS = await ctx.temp.write(
      `git_askpass_${String(repo.id)}.sh`,
      ASKPASS_SCRIPT,
      0o700,
    )
    env.FLAGMAN_GIT_LOGIN = remote.credentials.login
    env.FLAGMAN_GIT_PASSWORD = remote.credentials.password
  }
  return env
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

/**
 * Makes the repository available and returns its directory: local paths in place, remote
 * ones cloned into `{workRoot}/{dirName}` (kept as a cache) or fetched and reset there.
 */
export async function prepareRepository(
  repo: JobRepository,
  branchOverride: string,
  dirName: string,
  ctx: RepositoryContext,
): Promise<string> {
  const { sink, control } = ctx
  if (repo.url.startsWith('/')) {
    // A local check of microseconds, synchronous: see readHeadHash.
    if (!existsSync(repo.url)) {
      throw new PreparationError(`Failed in finding static repository at ${repo.url}`)
    }
    sink.push(`Using local repository ${repo.url}`)
    return repo.url
  }
  // The server refuses such URLs; a repository stored before that is refused here.
  if (repo.url.startsWith('-')) {
    throw new PreparationError(`Failed updating repository: incorrect URL ${repo.url}`)
  }
  const branch = branchOverride !== '' ? branchOverride : repo.branch
  checkBranch(branch)
  const dir = join(ctx.workRoot, dirName)
  const remote = gitRemote(repo)
  const env = await gitEnv(repo, remote, ctx)
  const git = (args: string[], cwd: string): Promise<CommandResult> =>
    runLogged({ program: 'git', args, cwd, env }, control, sink)
  const failed = (result: CommandResult): string => describeFailure('git', result)

  // `--` ends the options on every command line holding a URL or a branch, so neither can
  // ever be read as one.
  if (await exists(dir)) {
    sink.push(`Updating repository ${repo.url}`)
    const steps: string[][] = [
      ['remote', 'set-url', '--', 'origin', remote.url],
      ['fetch', '--prune', '--', 'origin'],
      branch !== ''
        ? ['checkout', '--force', '-B', branch, `origin/${branch}`, '--']
        : ['reset', '--hard', 'origin/HEAD', '--'],
      ['submodule', 'update', '--init', '--recursive'],
    ]
    let ok = true
    for (const args of steps) {
      const result = await git(args, dir)
      if (control.stopped) return dir
      if (result.code !== 0) {
        ok = false
        break
      }
    }
    if (ok) return dir
    sink.push(`Updating failed, cloning repository ${repo.url} again`)
    await rm(dir, { recursive: true, force: true })
  } else {
    sink.push(`Cloning repository ${repo.url}`)
  }
  // The work root is made here, not with the job: a job of a local repository needs none.
  await mkdir(ctx.workRoot, { recursive: true, mode: 0o700 })
  const args = ['clone', '--recursive']
  if (branch !== '') args.push('--branch', branch)
  args.push('--', remote.url, dirName)
  const result = await git(args, ctx.workRoot)
  if (!control.stopped && result.code !== 0) {
    throw new PreparationError(`Failed updating repository: ${failed(result)}`)
  }
  return dir
}

/**
 * Checks out the commit a task asked for in a cloned repository. A local repository is used
 * as it is: its working tree belongs to someone else.
 */
export async function checkoutCommit(
  dir: string,
  repo: JobRepository,
  hash: string,
  ctx: RepositoryContext,
): Promise<void> {
  if (repo.url.startsWith('/')) {
    ctx.sink.push(`Commit ${hash} is not checked out: a local repository is used as it is`)
    return
  }
  if (!/^[0-9a-f]{4,64}$/i.test(hash)) {
    throw new PreparationError(`Failed to checkout repository to required commit: ${hash}`)
  }
  ctx.sink.push(`Checkout repository to ${hash}`)
  const env = { ...ctx.baseEnv, GIT_TERMINAL_PROMPT: '0' }
  const result = await runLogged(
    { program: 'git', args: ['checkout', '--force', '--detach', hash, '--'], cwd: dir, env },
    ctx.control,
    ctx.sink,
  )
  if (!ctx.control.stopped && result.code !== 0) {
    throw new PreparationError(
      `Failed to checkout repository to required commit: ${describeFailure('git', result)}`,
    )
  }
}

/** Subjects of commits already read, by `folder\0hash`: a commit's subject never changes. */
const subjects = new Map<string, string>()
const MAX_SUBJECTS = 10_000

/**
 * Reads HEAD's hash and subject; null when the folder is not a git repository. The hash is
 * read from the repository's files (`.git/HEAD` and its ref) and the subject is asked of git
 * only for a commit not seen before, so a task of an unchanged repository starts without a
 * git process.
 */
export async function readCommit(
  dir: string,
  ctx: RepositoryContext,
): Promise<{ hash: string; message: string } | null> {
  const known = readHeadHash(dir)
  if (known !== null) {
    const subject = subjects.get(`${dir}\0${known}`)
    if (subject !== undefined) return { hash: known, message: subject }
  }
  const env = { ...ctx.baseEnv, GIT_TERMINAL_PROMPT: '0' }
  // One git process for both: a task's start waits for it.
  const head = await runCaptured(
    { program: 'git', args: ['log', '-1', '--format=%H%n%s', '--no-color'], cwd: dir, env },
    ctx.control,
  )
  const hash = head.lines[0]?.trim() ?? ''
  if (head.code !== 0 || !/^[0-9a-f]{40,64}$/.test(hash)) return null
  const message = (head.lines[1] ?? '').slice(0, 100)
  // Only a hash the files name is remembered: it is the one the next task will look up.
  if (hash === known) {
    if (subjects.size >= MAX_SUBJECTS) subjects.clear()
    subjects.set(`${dir}\0${hash}`, message)
  }
  return { hash, message }
}

const HASH = /^[0-9a-f]{40,64}$/

/**
 * The commit `dir/.git/HEAD` names, following one symbolic ref to a loose ref or the
 * packed refs; null whenever the layout is anything else (a worktree, a folder inside a
 * repository, an unborn branch), and git itself is asked. The reads are synchronous: each is
 * a few bytes of a local file, microseconds, where a round trip through the thread pool costs
 * a task's start a millisecond or more on a busy machine.
 */
function readHeadHash(dir: string): string | null {
  const gitDir = join(dir, '.git')
  const read = (name: string): string | null => {
    try {
      return readFileSync(join(gitDir, name), 'utf8').trim()
    } catch {
      return null
    }
  }
  const head = read('HEAD')
  if (head === null) return null
  if (HASH.test(head)) return head
  const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1]
  if (ref === undefined || ref.split('/').includes('..')) return null
  const loose = read(ref)
  if (loose !== null) return HASH.test(loose) ? loose : null
  for (const line of (read('packed-refs') ?? '').split('\n')) {
    const [hash, name] = line.trim().split(' ')
    if (name === ref && hash !== undefined && HASH.test(hash)) return hash
  }
  return null
}

export interface RemoteHeadOptions {
  /** Where the short-lived folder for credentials is made; the system temp folder by default. */
  workRoot?: string
  /** Base environment for git (PATH, HOME, …); the server's own env is not inherited otherwise. */
  baseEnv?: Record<string, string>
  /** git is stopped after this long (default 60 s). */
  timeoutMs?: number
}

/**
 * Reads the commit hash at the head of the repository's branch with `git ls-remote`, using
 * the repository's key exactly as a task's clone does. A local repository (a path) and one
 * without a branch answer for HEAD. Throws with git's own words when the lookup fails.
 */
export async function readRemoteHead(
  repo: JobRepository,
  branch: string,
  options: RemoteHeadOptions = {},
): Promise<string> {
  const baseEnv = options.baseEnv ?? defaultBaseEnv()
  const temp = await TempDir.createNamed(options.workRoot ?? tmpdir(), 'ls_remote_')
  const control = new ProcessControl(1000)
  const timer = setTimeout(() => control.stop(true), options.timeoutMs ?? 60_000)
  try {
    if (repo.url.startsWith('-')) throw new Error(`Incorrect repository URL ${repo.url}`)
    const remote = gitRemote(repo)
    const env = await gitEnv(repo, remote, { temp, baseEnv })
    const ref = branch === '' || repo.url.startsWith('/') ? 'HEAD' : `refs/heads/${branch}`
    // `--` keeps a URL that starts with a dash from being read as an option.
    const result = await runCaptured(
      { program: 'git', args: ['ls-remote', '--', remote.url, ref], cwd: temp.path, env },
      control,
    )
    if (control.stopped) throw new Error(`git ls-remote ${remote.url} took too long`)
    if (result.code !== 0) {
      const said = result.lines.filter((line) => line.trim() !== '').join(' ')
      throw new Error(`${describeFailure('git', result)}${said ? `: ${said}` : ''}`)
    }
    const line = result.lines.find((l) => /^[0-9a-f]{40,64}\s/.test(l))
    const hash = line?.split(/\s/)[0]
    if (!hash) throw new Error(`The repository ${remote.url} has no ${ref}`)
    return hash
  } finally {
    clearTimeout(timer)
    await temp.remove()
  }
}
