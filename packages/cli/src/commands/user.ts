import { CreateUserBody, describeIssues, Password } from '@flagman/contract'
import { createUser, deleteUser, findUserByLogin, listUserRows, setPassword } from '@flagman/server'
import type { Command } from 'commander'
import { withDb } from '../context.js'
import { CliError } from '../errors.js'

interface AddOptions {
  login: string
  password: string
  name: string
  email: string
  admin?: boolean
}

/** The command-line tool acts as an administrator with no session. */
const CLI_ACTOR = {
  id: 0,
  username: 'cli',
  name: 'Command line',
  email: '',
  admin: true,
  external: false,
  pro: false,
  sessionId: null,
  via: 'token' as const,
}

export function userCommands(program: Command): void {
  const user = program.command('user').description('manage users')

  user
    .command('add')
    .description('create a user')
    .requiredOption('--login <login>', 'username used to sign in')
    .requiredOption('--password <password>', 'password')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--email <email>', 'email address')
    .option('--admin', 'make the user an administrator', false)
    .action(async (opts: AddOptions) => {
      const parsed = CreateUserBody.safeParse({
        username: opts.login,
        password: opts.password,
        name: opts.name,
        email: opts.email,
        admin: Boolean(opts.admin),
      })
      if (!parsed.success) throw new CliError(describeIssues(parsed.error.issues))
      await withDb(async (db) => {
        const created = await createUser(db, null, parsed.data)
        console.log(`User ${created.username} created${created.admin ? ' (administrator)' : ''}`)
      })
    })

  user
    .command('list')
    .description('list users')
    .action(async () => {
      await withDb(async (db) => {
        const rows = await listUserRows(db)
        if (rows.length === 0) {
          console.log('No users')
          return
        }
        for (const row of rows) {
          const flags = [row.admin ? 'admin' : '', row.external ? 'external' : ''].filter(Boolean)
          console.log(
            `${row.username}\t${row.name}\t${row.email}${flags.length ? `\t${flags.join(',')}` : ''}`,
          )
        }
      })
    })

  user
    .command('change-by-login')
    .description("change a user's password")
    .requiredOption('--login <login>', 'username or email of the user')
    .requiredOption('--password <password>', 'new password')
    .action(async (opts: { login: string; password: string }) => {
      const password = Password.safeParse(opts.password)
      if (!password.success) throw new CliError(describeIssues(password.error.issues))
      await withDb(async (db) => {
        const row = await findUserByLogin(db, opts.login)
        if (!row) throw new CliError(`No user with login ${opts.login}`)
        await setPassword(db, CLI_ACTOR, row.id, password.data)
        console.log(`Password of ${row.username} changed`)
      })
    })

  user
    .command('delete')
    .description('delete a user')
    .requiredOption('--login <login>', 'username or email of the user')
    .action(async (opts: { login: string }) => {
      await withDb(async (db) => {
        const row = await findUserByLogin(db, opts.login)
        if (!row) throw new CliError(`No user with login ${opts.login}`)
        await deleteUser(db, null, row.id)
        console.log(`User ${row.username} deleted`)
      })
    })
}
