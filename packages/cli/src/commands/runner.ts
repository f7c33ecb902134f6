import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseRunnerTags, RUNNER_TAG_PATTERN } from '@flagman/contract'
import { generateRunnerKeyPair } from '@flagman/executor'
import type { Command } from 'commander'
import { CliError } from '../errors.js'
import {
  keyFileBeside,
  readRunnerConfig,
  relativeToConfig,
  removeIfPresent,
  writeRunnerConfig,
  writeSecretFile,
} from '../runner/config-file.js'
import {
  ProtocolClient,
  registerRunner,
  RunnerRefusedError,
  serverBase,
} from '../runner/protocol-client.js'
import { RunnerLoop } from '../runner/runner-loop.js'
import { say } from '../runner/say.js'

interface RegisterOptions {
  server: string
  registrationToken: string
  config: string
  tags?: string
  maxParallelTasks?: string
  name?: string
  webhook?: string
  force?: boolean
}

interface StartOptions {
  config?: string
  server?: string
  token?: string
  privateKeyFile?: string
  tags?: string
  maxParallelTasks?: string
  workDir?: string
}

interface UnregisterOptions {
  config: string
}

function tagsOption(text: string): string[] {
  const tags = parseRunnerTags(text)
  const bad = tags.find((t) => !RUNNER_TAG_PATTERN.test(t))
  if (bad !== undefined) {
    throw new CliError(`Invalid tag "${bad}": tags hold only letters, digits, _, . and -`)
  }
  return tags
}

function slotsOption(text: string): number {
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(value) || value > 10_000) {
    throw new CliError('--max-parallel-tasks must be a whole number from 0 (no limit) to 10000')
  }
  return value
}

function checkedServer(url: string): string {
  try {
    return serverBase(url)
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error))
  }
}

function readKey(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    throw new CliError(`Cannot read the private key file ${path}`)
  }
}

export function runnerCommands(program: Command): void {
  const runner = program.command('runner').description('run tasks for a Flagman server elsewhere')

  runner
    .command('register')
    .description("register this machine as a runner with the server's registration token")
    .requiredOption('--server <url>', 'address of the Flagman server, e.g. http://host:3000')
    .requiredOption('--registration-token <token>', "the server's runner registration token")
    .requiredOption('--config <file>', 'runner config file to write')
    .option('--tags <tags>', 'comma-separated tags the runner carries')
    .option('--max-parallel-tasks <n>', 'tasks run at once (0: no limit)')
    .option('--name <name>', 'name shown in the console')
    .option('--webhook <url>', 'URL the server calls when it gives the runner a task')
    .option('--force', 'overwrite an existing config file and key file')
    .action(async (opts: RegisterOptions) => {
      const server = checkedServer(opts.server)
      const tags = opts.tags === undefined ? [] : tagsOption(opts.tags)
      const slots = opts.maxParallelTasks === undefined ? 0 : slotsOption(opts.maxParallelTasks)
      const configFile = resolve(opts.config)
      const keyFile = keyFileBeside(configFile)
      if (!opts.force) {
        for (const file of [configFile, keyFile]) {
          if (existsSync(file)) throw new CliError(`${file} exists; give --force to replace it`)
        }
      }
      if (!existsSync(dirname(configFile))) {
        throw new CliError(`The folder ${dirname(configFile)} does not exist`)
      }
      const keys = generateRunnerKeyPair()
      let token: string
      try {
        token = await registerRunner(server, {
          registration_token: opts.registrationToken,
          public_key: keys.publicKeyPem,
          max_parallel_tasks: slots,
          tag: tags.join(','),
          name: opts.name ?? null,
          webhook: opts.webhook ?? null,
        })
      } catch (error) {
        throw new CliError(error instanceof Error ? error.message : String(error))
      }
      writeSecretFile(keyFile, keys.privateKeyPem)
      writeRunnerConfig(configFile, {
        server,
        token,
        private_key_file: relativeToConfig(configFile, keyFile),
        tags,
        max_parallel_tasks: slots,
      })
      console.log(`Runner registered with ${server}`)
      console.log(`Config (token): ${configFile}`)
      console.log(`Private key: ${keyFile}`)
      console.log(`Start it with: flagman runner start --config ${opts.config}`)
    })

  runner
    .command('start')
    .description('poll the server for tasks and run them, until stopped (Ctrl+C)')
    .option('--config <file>', 'runner config file written by "flagman runner register"')
    .option('--server <url>', 'address of the Flagman server (without --config)')
    .option('--token <token>', 'runner token shown when the runner was created')
    .option('--private-key-file <file>', 'private key shown when the runner was created')
    .option('--tags <tags>', "comma-separated tags (replace the runner's stored tags)")
    .option('--max-parallel-tasks <n>', 'tasks run at once (0: no limit)')
    .option('--work-dir <dir>', 'folder for clones and temporary files')
    .action(async (opts: StartOptions) => {
      const fromFile = opts.config !== undefined ? readRunnerConfig(opts.config) : null
      const server = opts.server ?? fromFile?.server
      const token = opts.token ?? fromFile?.token
      if (server === undefined || token === undefined) {
        throw new CliError('Give --config FILE, or --server URL and --token TOKEN')
      }
      const keyPath = opts.privateKeyFile ?? (fromFile?.keyPath || undefined)
      const privateKey = keyPath === undefined ? null : readKey(keyPath)
      const tags =
        opts.tags !== undefined
          ? tagsOption(opts.tags)
          : fromFile && fromFile.tags.length > 0
            ? fromFile.tags
            : undefined
      const slots =
        opts.maxParallelTasks !== undefined
          ? slotsOption(opts.maxParallelTasks)
          : fromFile?.max_parallel_tasks
      const workDir = resolve(
        opts.workDir ??
          process.env.FLAGMAN_RUNNER_WORK_DIR ??
          join(opts.config !== undefined ? dirname(resolve(opts.config)) : '.', 'runner-work'),
      )
      const loop = new RunnerLoop({
        client: new ProtocolClient(checkedServer(server), token, privateKey),
        tags,
        maxParallelTasks: slots,
        workDir,
      })
      process.on('SIGINT', () => loop.stop('SIGINT'))
      process.on('SIGTERM', () => loop.stop('SIGTERM'))
      say(
        `Flagman runner for ${server}: tags ${tags?.join(',') || '(as stored)'}, ` +
          `${slots === undefined ? 'slots as stored' : slots === 0 ? 'no slot limit' : `${slots} slot(s)`}, ` +
          `work folder ${workDir}`,
      )
      try {
        await loop.run()
      } catch (error) {
        if (error instanceof RunnerRefusedError) throw new CliError(error.message)
        throw error
      }
      process.exit(0)
    })

  runner
    .command('unregister')
    .description('delete this runner on the server and remove its config and key files')
    .requiredOption('--config <file>', 'runner config file written by "flagman runner register"')
    .action(async (opts: UnregisterOptions) => {
      const config = readRunnerConfig(opts.config)
      const client = new ProtocolClient(checkedServer(config.server), config.token, null)
      try {
        await client.unregister()
        console.log(`Runner unregistered from ${config.server}`)
      } catch (error) {
        // Already deleted on the server (e.g. in the console): only the files are left to go.
        if (!(error instanceof RunnerRefusedError)) {
          throw new CliError(error instanceof Error ? error.message : String(error))
        }
        console.log(`The server no longer knows this runner (${error.message})`)
      }
      removeIfPresent(resolve(opts.config))
      console.log(`Removed ${resolve(opts.config)}`)
      if (config.keyPath !== '' && removeIfPresent(config.keyPath)) {
        console.log(`Removed ${config.keyPath}`)
      }
    })
}
