import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { parseRunnerTags } from '@flagman/contract'
import { CliError } from '../errors.js'

/** Name of the private key file written beside the runner's config file. */
export const RUNNER_KEY_FILE = 'config.runner.key'

/** What `flagman runner register` writes: enough for `flagman runner start --config FILE`. */
export interface RunnerConfigFile {
  server: string
  token: string
  /** Relative to the config file's folder (or absolute). */
  private_key_file: string
  tags: string[]
  max_parallel_tasks: number
}

/** Only the owner may read a file holding a token or a private key. */
const SECRET_MODE = 0o600

export function writeSecretFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: SECRET_MODE })
  // `mode` applies only when the file is created; an overwritten file keeps its old mode.
  chmodSync(path, SECRET_MODE)
}

export function keyFileBeside(configFile: string): string {
  return join(dirname(resolve(configFile)), RUNNER_KEY_FILE)
}

export function writeRunnerConfig(configFile: string, config: RunnerConfigFile): void {
  writeSecretFile(configFile, `${JSON.stringify(config, null, 2)}\n`)
}

export function relativeToConfig(configFile: string, path: string): string {
  return relative(dirname(resolve(configFile)), resolve(path))
}

/** The config file as written by `register`, checked; paths resolved against its folder. */
export function readRunnerConfig(configFile: string): RunnerConfigFile & { keyPath: string } {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(configFile, 'utf8'))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON'
    throw new CliError(`Cannot read the runner config ${configFile}: ${reason}`)
  }
  const fields = (raw ?? {}) as Record<string, unknown>
  const text = (name: string): string => {
    const value = fields[name]
    if (typeof value !== 'string' || value === '') {
      throw new CliError(`The runner config ${configFile} has no ${name}`)
    }
    return value
  }
  const server = text('server')
  const token = text('token')
  const keyFile = typeof fields.private_key_file === 'string' ? fields.private_key_file : ''
  const tags = Array.isArray(fields.tags)
    ? fields.tags.filter((t): t is string => typeof t === 'string')
    : parseRunnerTags(typeof fields.tags === 'string' ? fields.tags : '')
  const slots = Number(fields.max_parallel_tasks ?? 0)
  return {
    server,
    token,
    private_key_file: keyFile,
    keyPath:
      keyFile === '' || isAbsolute(keyFile) ? keyFile : join(dirname(resolve(configFile)), keyFile),
    tags,
    max_parallel_tasks: Number.isInteger(slots) && slots >= 0 ? slots : 0,
  }
}

export function removeIfPresent(path: string): boolean {
  if (!existsSync(path)) return false
  rmSync(path, { force: true })
  return true
}
