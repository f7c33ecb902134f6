import { migrateToLatest, createDb } from '@flagman/db'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { INITIAL_PASSWORD_FILE, startServer, VERSION } from '@flagman/server'
import { Command, CommanderError, type HelpContext } from 'commander'
import { runnerCommands } from './commands/runner.js'
import { userCommands } from './commands/user.js'
import { config } from './context.js'
import { CliError } from './errors.js'

/** `flagman user add`: the command as typed, for hints. */
function commandPath(command: Command): string {
  const names: string[] = []
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

/**
 * Commands whose usage errors (unknown command or option, missing option or command) end
 * as one `flagman: …` line pointing at the command's --help, like every other error.
 */
class CliCommand extends Command {
  override createCommand(name?: string): CliCommand {
    return new CliCommand(name)
  }

  override error(message: string): never {
    const text = message.replace(/^error:\s*/, '').replace(/\.$/, '')
    throw new CliError(`${text}; see '${commandPath(this)} --help'`)
  }

  override help(context?: HelpContext | ((text: string) => string)): never {
    if (typeof context === 'object' && context.error) this.error('missing command')
    return super.help(context as HelpContext)
  }
}

const program = new CliCommand('flagman')
  .description('Flagman task-automation server')
  .version(VERSION, '-v, --version', 'print the version')
  .exitOverride()

program
  .command('server')
  .description('start the server and the web console')
  .action(async () => {
    const cfg = config()
    const server = await startServer(cfg)
    console.log(`Flagman ${VERSION} is listening on ${server.url}`)
    const passwordFile = join(cfg.dataDir, INITIAL_PASSWORD_FILE)
    if (existsSync(passwordFile)) {
      console.log(
        `Sign in as "${cfg.adminLogin}" with the password stored in ${passwordFile}; ` +
          'the file is removed once that password has been changed.',
      )
    }
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) {
        // Asked again: the drain is cut short and the server closes now.
        server.endDrain()
        return
      }
      stopping = true
      server.app.log.info(`${signal} received, stopping`)
      server.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    }
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
  })

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const db = await createDb(config().db)
    try {
      const report = await migrateToLatest(db)
      console.log(
        report.applied.length
          ? `Applied ${report.applied.length} migration(s): ${report.applied.join(', ')}`
          : 'The database is up to date',
      )
    } finally {
      await db.destroy()
    }
  })

program
  .command('version')
  .description('print the version')
  .action(() => {
    console.log(VERSION)
  })

userCommands(program)
runnerCommands(program)

function fail(message: string): never {
  console.error(`flagman: ${message.split('\n')[0]}`)
  process.exit(1)
}

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Help and version output end here, with exit code 0.
    process.exit(error.exitCode)
  }
  if (error instanceof CliError) fail(error.message)
  if (error instanceof Error) fail(error.message)
  fail(String(error))
})
