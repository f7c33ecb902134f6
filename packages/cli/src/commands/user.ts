import { CreateUserBody, describeIssues, Password } from '@flagman/contract'
import {
  createUser,
  deleteUser,
  findUserByLogin,
  holdsInitialPassword,
  listUserRows,
  removeInitialPasswordFile,
  setPassword,
  updateUser,
} from '@flagman/server'
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

interface ChangeOptions {
  login: string
  password?: string
  name?: string
  email?: string
  admin?: boolean
}

/** What `change-by-login` may set, checked like the same fields over the API. */
const UserChanges = CreateUserBody.pick({ name: true, email: true })
  .partial()
  .extend({ password: Password.optional() })

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
      await withDb(async (db, cfg) => {
        const created = await createUser(db, null, parsed.data, {
          minLength: cfg.passwordMinLength,
        })
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
    .description("change a user's password, name or email, or make them an administrator")
    .requiredOption('--login <login>', 'username or email of the user')
    .option('--password <password>', 'new password (signs the user out everywhere)')
    .option('--name <name>', 'new display name')
    .option('--email <email>', 'new email address')
    .option('--admin', 'make the user an administrator')
    .action(async (opts: ChangeOptions) => {
      const changes = UserChanges.safeParse({
        name: opts.name,
        email: opts.email,
        password: opts.password,
      })
      if (!changes.success) throw new CliError(describeIssues(changes.error.issues))
      const { name, email, password } = changes.data
      if (name === undefined && email === undefined && password === undefined && !opts.admin) {
        throw new CliError('Nothing to change: give --password, --name, --email or --admin')
      }
      await withDb(async (db, cfg) => {
        const row = await findUserByLogin(db, opts.login)
        if (!row) throw new CliError(`No user with login ${opts.login}`)
        const rules = { minLength: cfg.passwordMinLength }
        const initial = password ? await holdsInitialPassword(db, cfg.dataDir, row.id) : false
        if (name === undefined && email === undefined && !opts.admin && password !== undefined) {
          await setPassword(db, null, row.id, password, rules)
          console.log(`Password of ${row.username} changed`)
        } else {
          await updateUser(
            db,
            null,
            row.id,
            {
              username: row.username,
              name: name ?? row.name,
              email: email ?? row.email,
              password,
              ...(opts.admin ? { admin: true } : {}),
            },
            rules,
          )
          console.log(`User ${row.username} changed`)
        }
        const removed = initial ? removeInitialPasswordFile(cfg.dataDir) : null
        if (removed) console.log(removed)
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
