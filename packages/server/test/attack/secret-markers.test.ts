import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiToken, CreatedRunner, ROUTES, TerraformAlias, TotpEnrolment } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { TOTP, URI } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  gitRepository,
  pathParams,
  processArgs,
  recordSocket,
  routeKey,
  until,
  type SocketRecorder,
} from '../support/attack.js'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectNoContent, http, type Credentials } from '../support/http.js'
import {
  dumpDatabase,
  generateSshKeys,
  readSqliteFiles,
  startLoggedServer,
  type LoggedServer,
} from '../support/resources.js'
import { setAppsActive } from '../support/templates.js'

/*
 * A unique marker in every secret field, then tasks that use them, then a search for every
 * form of every marker in everything the server lets out or keeps: every GET route as an
 * admin and as a guest, websocket frames, task output, backups, the server's own log (at the
 * most verbose level), command lines of running processes, and the database files. The
 * sign-in secrets are among them: a second factor's secret and recovery code, an API token,
 * a single sign-on client secret and the LDAP bind password (both settings, used against
 * a provider and a directory that are down).
 */

const Item = z.object({ id: z.number() }).catchall(z.unknown())
const TaskStatus = z.object({ id: z.number(), status: z.string() }).catchall(z.unknown())

/** Scripts of the repository the tasks run. */
const FILES: Record<string, string> = {
  // Prints every argument and environment value as is, base64- and URL-encoded.
  'echo.sh': [
    'urlencode() { local s="$1" out="" c i',
    '  for ((i = 0; i < ${#s}; i++)); do c="${s:i:1}"',
    '    case "$c" in [a-zA-Z0-9.~_-]) out+="$c" ;; *) out+=$(printf \'%%%02X\' "\'$c") ;; esac',
    '  done; printf \'%s\\n\' "$out"; }',
    'show() { printf \'%s\\n\' "$1"; printf \'%s\' "$1" | base64 -w0; echo; urlencode "$1"; }',
    'echo "argc=$#"',
    'for a in "$@"; do show "$a"; show "${a#*=}"; done',
    'while IFS= read -r -d \'\' entry; do show "${entry#*=}"; done < <(env -0)',
    'echo "echo done"',
    '',
  ].join('\n'),
  // Waits (bounded) until the test has looked at the command lines and releases it.
  'wait.sh': [
    'echo "waiting for release"',
    'for i in $(seq 1 1200); do [ -e "$RELEASE_FILE" ] && break; sleep 0.05; done',
    'echo released',
    '',
  ].join('\n'),
  'ok.sh': 'echo ok\n',
  'site.yml': [
    '- hosts: all',
    '  gather_facts: false',
    '  tasks:',
    '    - debug: msg="var {{ db_password }}"',
    '    - debug: msg="survey {{ token }}"',
    '    - debug: msg="b64 {{ db_password | b64encode }} {{ token | b64encode }}"',
    '    - debug: msg="url {{ db_password | urlencode }} {{ token | urlencode }}"',
    '',
  ].join('\n'),
}

/** The forms a secret could leak in. */
function forms(secret: string): Array<[string, string]> {
  const list: Array<[string, string]> = [
    ['as sent', secret],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['base64', Buffer.from(secret).toString('base64')],
    ['base64url', Buffer.from(secret).toString('base64url')],
    ['URL-encoded', encodeURIComponent(secret)],
  ]
  const core = /^MARKER-[a-z0-9]+-[0-9a-f]+/.exec(secret)?.[0]
  // Any part of a marker that names it, whatever surrounds or follows it.
  if (core) list.push(['marker core', core])
  for (const line of secret.split('\n')) {
    if (line.length >= 16 && !line.startsWith('-----')) list.push(['key line', line])
  }
  const seen = new Set<string>()
  return list.filter(([, text]) => text.length > 0 && !seen.has(text) && seen.add(text))
}

/** Where a text was seen: a label and the text. */
type Seen = Array<[string, string]>

/** A port of this machine nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** An answer's headers and body, as the scan reads them. */
function answerText(headers: Headers, body: string): string {
  const lines: string[] = []
  headers.forEach((value, name) => lines.push(`${name}: ${value}`))
  return `${lines.join('\n')}\n${body}`
}

describe.each(dialects())('secret markers on %s', (dialect) => {
  const tag = randomBytes(5).toString('hex')
  /** Unique per kind; the tail has characters each encoding changes. */
  const marker = (kind: string) => `MARKER-${kind}-${tag}/q"a#b+c&d`
  const ssh = generateSshKeys(marker('passphrase'))
  const secrets: Record<string, string> = {
    'key store password': marker('keypassword'),
    'ssh passphrase': ssh.passphrase,
    'ssh private key': ssh.encrypted,
    'environment var secret': marker('varsecret'),
    'environment env secret': marker('envsecret'),
    'environment password': marker('envpassword'),
    'survey secret': marker('survey'),
    'repository URL password': marker('urlpassword'),
    'vault password': marker('vaultpassword'),
    'user password at creation': marker('userpasscreate'),
    'user password change': marker('userpasschange'),
    'user password update': marker('userpassupdate'),
    'OIDC client secret': marker('oidcsecret'),
    'LDAP bind password': marker('ldapbind'),
    'Terraform backend password': marker('tfbackend'),
  }
  const s = (name: string): string => {
    const value = secrets[name]
    if (value === undefined) throw new Error(`no secret named ${name}`)
    return value
  }

  let server: LoggedServer
  let world: World
  let db: Db
  let admin: Person
  let guest: Person
  let repo: ReturnType<typeof gitRepository>
  let workDir: string
  let tls: Server
  const held: Socket[] = []
  const sockets: SocketRecorder[] = []
  /** GET answers, frames, command lines and task outputs, as collected. */
  const answers: Seen = []
  const commandLines: Seen = []
  const outputs: Seen = []
  const tasks: Record<string, number> = {}
  const statuses: Record<string, string> = {}
  let projectId = 0
  let urlRepositoryStored = false
  let releaseFile = ''
  let tlsPort = 0

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'flagman-markers-'))
    releaseFile = join(workDir, 'release')
    repo = gitRepository(FILES)
    // A TLS endpoint that accepts connections and never answers: a clone waits on it.
    tls = createServer((socket) => {
      held.push(socket)
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
    tlsPort = (tls.address() as { port: number }).port

    // Single sign-on and the directory are configured, with both of them down.
    const oidcPort = await closedPort()
    const provider = `http://127.0.0.1:${oidcPort}`
    const oidcConfig = join(workDir, 'oidc.json')
    writeFileSync(
      oidcConfig,
      JSON.stringify({
        markers: {
          display_name: 'Markers',
          endpoint: {
            issuer: provider,
            auth: `${provider}/authorize`,
            token: `${provider}/token`,
            userinfo: `${provider}/userinfo`,
            jwks: `${provider}/jwks`,
          },
          client_id: 'flagman',
          client_secret: s('OIDC client secret'),
        },
      }),
    )
    server = await startLoggedServer(dialect, {
      FLAGMAN_TOTP_ENABLED: 'true',
      FLAGMAN_TOTP_ALLOW_RECOVERY: 'true',
      FLAGMAN_OIDC_CONFIG: oidcConfig,
      FLAGMAN_LDAP_URL: `ldap://127.0.0.1:${await closedPort()}`,
      FLAGMAN_LDAP_BIND_DN: 'cn=flagman,dc=example,dc=test',
      FLAGMAN_LDAP_BIND_PASSWORD: s('LDAP bind password'),
      FLAGMAN_LDAP_SEARCH_BASE: 'ou=people,dc=example,dc=test',
    })
    world = new World(server)
    db = await world.openDb()
    admin = await world.admin()
    await setAppsActive(world, ['bash', 'ansible'], true)
    const send = (method: string, path: string, json?: unknown, as: Credentials = admin.as) =>
      world.request(method, path, { as, ...(json === undefined ? {} : { json }) })

    // Users: a password at creation, changed, then updated; each one used to sign in.
    guest = await world.newUser()
    const holder = await world.createUser({ password: s('user password at creation') })
    await world.signIn(holder.username, s('user password at creation'))
    expectNoContent(
      await send('POST', `/api/users/${holder.id}/password`, {
        password: s('user password change'),
      }),
    )
    const holderAs = await world.signIn(holder.username, s('user password change'))
    expectNoContent(
      await send(
        'PUT',
        `/api/users/${holder.id}`,
        {
          username: holder.username,
          name: holder.name,
          email: holder.email,
          password: s('user password update'),
          current_password: s('user password change'),
        },
        holderAs,
      ),
    )
    await world.signIn(holder.username, s('user password update'))
    // An API token, used once: the whole token is only in the answer that creates it.
    const token = expectBody(
      await send('POST', '/api/user/tokens', { name: 'markers' }),
      201,
      ApiToken,
    )
    expect(token.name).toBe('markers')
    secrets['API token'] = token.id
    expect((await http(server.url, 'GET', '/api/user', { as: { token: token.id } })).status).toBe(
      200,
    )

    // A second factor of a user who is not the admin, and one of its codes used to sign in.
    // Its secret and recovery code are only in the enrolment answer, which is not searched.
    const enrolled = await world.newUser()
    const enrolment = expectBody(
      await send('POST', `/api/users/${enrolled.id}/2fas/totp`, undefined, enrolled.as),
      200,
      TotpEnrolment,
    )
    const authenticator = URI.parse(enrolment.url)
    if (!(authenticator instanceof TOTP)) throw new Error('not a TOTP address')
    secrets['TOTP secret'] = authenticator.secret.base32
    expect(enrolment.recovery_code).toMatch(/^[A-Z2-7]{16}$/)
    secrets['TOTP recovery code'] = enrolment.recovery_code ?? ''
    const enrolledAs = await world.signIn(enrolled.username, enrolled.password)
    const passcode = authenticator.generate()
    const verified = await send('POST', '/api/auth/verify', { passcode }, enrolledAs)
    expect(verified.status, verified.text).toBe(200)
    for (const path of [
      '/api/user',
      `/api/users/${enrolled.id}`,
      `/api/users/${enrolled.id}/2fas/totp/${enrolment.id}/qr`,
    ]) {
      const result = await http(server.url, 'GET', path, { as: enrolledAs })
      expect(result.status, `GET ${path} as the enrolled user`).toBeLessThan(500)
      answers.push([`GET ${path} as the enrolled user`, answerText(result.headers, result.text)])
    }

    // Single sign-on: started, then finished with a made-up code, which sends the client
    // secret to the provider's token address (down).
    const started = await server.fetch('/api/auth/oidc/markers/login', { redirect: 'manual' })
    const startedText = answerText(started.headers, await started.text())
    answers.push(['GET the single sign-on start', startedText])
    expect(started.status, startedText).toBe(307)
    const authorization = new URL(started.headers.get('location') ?? '')
    expect(authorization.origin).toBe(provider)
    const state = authorization.searchParams.get('state') ?? ''
    const finished = await server.fetch(
      `/api/auth/oidc/markers/redirect?${new URLSearchParams({ code: 'made-up', state }).toString()}`,
      { redirect: 'manual', headers: { Cookie: `oauthstate=${state}` } },
    )
    const finishedText = answerText(finished.headers, await finished.text())
    answers.push(['GET the single sign-on return', finishedText])
    expect(finished.status, finishedText).toBe(307)
    expect(finished.headers.get('location')).toBe('/auth/login?error=oidc_provider_unavailable')

    // A login no local account has: the server binds to the directory with the bind password
    // to look it up, and answers that the directory is down. Local accounts still sign in.
    const unknown = await http(server.url, 'POST', '/api/auth/login', {
      json: { auth: `nobody-${tag}`, password: 'not the password' },
    })
    expect(unknown.status, unknown.text).toBe(424)
    await world.signIn(admin.username, admin.password)

    const project = await world.newProject()
    projectId = project.id
    await world.addMember(projectId, guest.id, 'guest')
    await world.addMember(projectId, holder.id, 'guest')
    const base = `/api/project/${projectId}`
    const create = async (path: string, json: unknown): Promise<number> =>
      expectBody(await send('POST', `${base}${path}`, json), 201, Item).id
    const keys = expectBody(await send('GET', `${base}/keys`), 200, z.array(Item))
    const none = keys.find((k) => k.name === 'None')?.id
    const sshKey = await create('/keys', {
      name: 'deploy',
      type: 'ssh',
      project_id: projectId,
      ssh: { login: 'git', passphrase: s('ssh passphrase'), private_key: s('ssh private key') },
    })
    const becomeKey = await create('/keys', {
      name: 'become',
      type: 'login_password',
      project_id: projectId,
      login_password: { login: 'root', password: s('key store password') },
    })
    const vaultKey = await create('/keys', {
      name: 'vault',
      type: 'login_password',
      project_id: projectId,
      login_password: { login: '', password: s('vault password') },
    })
    const localRepo = await create('/repositories', {
      name: 'local',
      project_id: projectId,
      git_url: repo.path,
      git_branch: '',
      ssh_key_id: none,
    })
    const urlRepo = await send('POST', `${base}/repositories`, {
      name: 'remote',
      project_id: projectId,
      git_url: `https://deploy:${encodeURIComponent(s('repository URL password'))}@127.0.0.1:${tlsPort}/repo.git`,
      git_branch: 'main',
      ssh_key_id: none,
    })
    // Refusing a URL that carries a password is as good as keeping it secret.
    expect(urlRepo.status, urlRepo.text).toBeLessThan(500)
    urlRepositoryStored = urlRepo.status === 201
    const environment = await create('/environment', {
      name: 'production',
      project_id: projectId,
      password: s('environment password'),
      json: '{}',
      env: JSON.stringify({ RELEASE_FILE: releaseFile }),
      secrets: [
        {
          operation: 'create',
          type: 'var',
          name: 'db_password',
          secret: s('environment var secret'),
        },
        {
          operation: 'create',
          type: 'env',
          name: 'API_TOKEN',
          secret: s('environment env secret'),
        },
      ],
    })
    const inventory = await create('/inventory', {
      name: 'local',
      project_id: projectId,
      type: 'static',
      inventory: 'localhost ansible_connection=local',
      ssh_key_id: sshKey,
      become_key_id: becomeKey,
    })
    const survey = [{ name: 'token', title: 'Token', type: 'secret', required: false }]
    const template = (fields: Record<string, unknown>) =>
      create('/templates', {
        name: `tpl ${String(fields.playbook)}`,
        project_id: projectId,
        app: 'bash',
        repository_id: localRepo,
        environment_id: environment,
        survey_vars: survey,
        ...fields,
      })
    const echo = await template({ playbook: 'echo.sh' })
    const wait = await template({ playbook: 'wait.sh' })
    const ansible = await template({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: inventory,
      vaults: [{ type: 'password', vault_key_id: vaultKey }],
    })
    await create('/schedules', {
      name: 'never',
      template_id: echo,
      cron_format: '0 0 1 1 *',
      active: false,
    })
    await create('/views', { title: 'view', position: 0, project_id: projectId })

    // A Terraform workspace whose alias opens with a key's password: states are written,
    // locked and unlocked through the backend protocol, one version restored.
    const workspace = await create('/inventory', {
      name: 'state',
      project_id: projectId,
      type: 'terraform-workspace',
      inventory: 'markers',
    })
    // `tf:` is three bytes, so the base64 of the whole basic credentials holds the base64 of
    // the password as it is: a logged Authorization header would show in the scan.
    const backendKey = await create('/keys', {
      name: 'state backend',
      type: 'login_password',
      project_id: projectId,
      login_password: { login: 'tf', password: s('Terraform backend password') },
    })
    const terraform = `${base}/inventory/${workspace}/terraform`
    const alias = expectBody(
      await send('POST', `${terraform}/aliases`, { auth_key_id: backendKey }),
      201,
      TerraformAlias,
    )
    const aliasName = new URL(alias.url).pathname.split('/').pop() ?? ''
    const backend = (
      method: string,
      body?: unknown,
      { query = '', password = s('Terraform backend password') } = {},
    ) =>
      http(server.url, method, `${new URL(alias.url).pathname}${query}`, {
        ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
        headers: {
          Authorization: `Basic ${Buffer.from(`tf:${password}`).toString('base64')}`,
          'Content-Type': 'application/json',
        },
      })
    const lockInfo = { ID: `lock-${tag}`, Operation: 'OperationTypeApply', Who: 'markers' }
    expect((await backend('LOCK', lockInfo)).status).toBe(200)
    for (const serial of [1, 2]) {
      const state = { version: 4, serial, lineage: tag, outputs: {}, resources: [] }
      const stored = await backend('POST', state, { query: `?ID=${lockInfo.ID}` })
      expect(stored.status, stored.text).toBe(200)
    }
    expect((await backend('UNLOCK', lockInfo)).status).toBe(200)
    // A wrong password is refused (and may be logged as a refusal, never with the password).
    expect((await backend('GET', undefined, { password: 'not the password' })).status).toBe(401)
    const stateIds = expectBody(await send('GET', `${terraform}/states`), 200, z.array(Item)).map(
      (v) => v.id,
    )
    expect(stateIds).toHaveLength(2)
    expectBody(await send('POST', `${terraform}/states/${stateIds[1] ?? 0}/restore`), 201, Item)
    const protocolGet = await backend('GET')
    expect(protocolGet.status, protocolGet.text).toBe(200)
    answers.push([
      'GET of the state through the backend protocol',
      answerText(protocolGet.headers, protocolGet.text),
    ])

    for (const person of [admin, guest]) {
      sockets.push(await recordSocket(server.url, person.as.cookie ?? ''))
    }
    const secret = JSON.stringify({ token: s('survey secret') })
    const run = async (name: string, templateId: number) => {
      const task = await send('POST', `${base}/tasks`, { template_id: templateId, secret })
      tasks[name] = expectBody(task, 201, Item).id
      return tasks[name] as number
    }
    const finish = async (name: string) => {
      await until(
        `the ${name} task to finish`,
        async () => {
          const task = expectBody(
            await send('GET', `${base}/tasks/${tasks[name]}`),
            200,
            TaskStatus,
          )
          statuses[name] = task.status
          return ['success', 'error', 'stopped'].includes(task.status)
        },
        60_000,
      )
    }
    const lines = async (id: number) =>
      ((await send('GET', `${base}/tasks/${id}/output`)).body as Array<{ output: string }>).map(
        (l) => l.output,
      )

    // A task that prints everything it was given.
    await run('echo', echo)
    await finish('echo')

    // A task that waits while the command lines of every process are read.
    const waiting = await run('wait', wait)
    await until('the wait task to start waiting', async () =>
      (await lines(waiting)).includes('waiting for release'),
    )
    commandLines.push(['while a script ran', processArgs()])
    writeFileSync(releaseFile, '')
    await finish('wait')

    // A clone from a repository whose URL holds a password, while git waits on the server.
    if (urlRepositoryStored) {
      const urlTemplate = await template({
        playbook: 'ok.sh',
        repository_id: (urlRepo.body as { id: number }).id,
      })
      await run('clone', urlTemplate)
      await until('git to connect', () => held.length > 0)
      commandLines.push(['while git cloned', processArgs()])
      for (const socket of held) socket.destroy()
      await finish('clone')
    }

    // Ansible with a vault password, an encrypted ssh key and a become password.
    await run('ansible', ansible)
    await finish('ansible')

    // Runners: their tokens and private keys are only in the answers that create them.
    const runnerIds: number[] = []
    for (const [scope, path] of [
      ['global', '/api/runners'],
      ['project', `/api/project/${projectId}/runners`],
    ] as const) {
      const created = expectBody(await send('POST', path, { name: 'markers' }), 201, CreatedRunner)
      secrets[`${scope} runner token`] = created.token
      secrets[`${scope} runner private key`] = created.private_key
      runnerIds.push(created.id)
    }

    // Every GET route of the contract, with every id this scenario made, as both people.
    const ids: Record<string, Array<string | number>> = {
      project_id: [projectId],
      user_id: [admin.id, guest.id, holder.id, enrolled.id],
      key_id: [...keys.map((k) => k.id), sshKey, becomeKey, vaultKey],
      repository_id: expectBody(await send('GET', `${base}/repositories`), 200, z.array(Item)).map(
        (r) => r.id,
      ),
      inventory_id: [inventory, workspace],
      environment_id: [environment],
      view_id: expectBody(await send('GET', `${base}/views`), 200, z.array(Item)).map((v) => v.id),
      template_id: [echo, wait, ansible],
      schedule_id: expectBody(await send('GET', `${base}/schedules`), 200, z.array(Item)).map(
        (x) => x.id,
      ),
      task_id: Object.values(tasks),
      app_id: ['bash', 'ansible'],
      token_id: [token.id.slice(0, 8)],
      alias_id: [alias.id, 1],
      state_id: [...stateIds, 1],
      integration_id: [1],
      matcher_id: [1],
      value_id: [1],
      totp_id: [enrolment.id],
      runner_id: runnerIds,
      alias: [aliasName, 'no-such-alias'],
    }
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      let paths = [route.path]
      for (const name of pathParams(route.path)) {
        const values = ids[name]
        if (!values) throw new Error(`no ids for the path parameter ${name} of ${routeKey(route)}`)
        paths = paths.flatMap((path) =>
          values.map((value) => path.replace(`:${name}`, encodeURIComponent(String(value)))),
        )
      }
      for (const path of paths) {
        for (const [who, as] of [
          ['admin', admin.as],
          ['guest', guest.as],
        ] as const) {
          const result = await http(server.url, 'GET', path, { as })
          expect(result.status, `GET ${path} as ${who}`).toBeLessThan(500)
          answers.push([`GET ${path} as ${who}`, answerText(result.headers, result.text)])
        }
      }
    }
    for (const [name, id] of Object.entries(tasks)) {
      outputs.push([`${name} task output`, (await lines(id)).join('\n')])
    }
    // The last frames of the tasks have arrived before the sockets are read.
    await until('the last websocket frames', () =>
      sockets.every((socket) =>
        socket.frames.some(
          (f) =>
            f.includes(`"task_id":${String(tasks.ansible)}`) &&
            /"status":"(success|error)"/.test(f),
        ),
      ),
    )
  }, 180_000)

  afterAll(async () => {
    for (const socket of sockets) socket.close()
    for (const socket of held) socket.destroy()
    await new Promise((resolve) => tls?.close(resolve))
    await db?.destroy()
    await server?.stop()
    repo?.dispose()
    if (workDir) rmSync(workDir, { recursive: true, force: true })
  })

  /** Every (secret, form) found in the places, as `secret (form) in place`. */
  function leaks(places: Seen): string[] {
    const found: string[] = []
    for (const [name, secret] of Object.entries(secrets)) {
      for (const [form, text] of forms(secret)) {
        for (const [place, content] of places) {
          if (content.includes(text)) found.push(`${name} (${form}) in ${place}`)
        }
      }
    }
    return found
  }

  it('ran the tasks that use the secrets', () => {
    expect(statuses.echo).toBe('success')
    expect(statuses.wait).toBe('success')
    expect(statuses.ansible).toBe('success')
    if (urlRepositoryStored) expect(statuses.clone).toBe('error')
    // The secrets did reach the scripts: their values show masked.
    const echo = outputs.find(([name]) => name === 'echo task output')?.[1] ?? ''
    expect(echo).toContain('echo done')
    expect(echo.split('****').length - 1).toBeGreaterThanOrEqual(4)
    // The script printed every value in each encoding (seen here for one that is no secret).
    expect(echo).toContain(Buffer.from(releaseFile).toString('base64'))
    expect(echo).toContain(encodeURIComponent(releaseFile))
  })

  it('never answers a GET with a secret, as an admin or a guest', () => {
    expect(answers.length).toBeGreaterThan(100)
    // The scan reads real answers: the environment's name is in many.
    expect(answers.filter(([, text]) => text.includes('production')).length).toBeGreaterThan(4)
    expect(leaks(answers)).toEqual([])
  })

  it('keeps secrets out of the stored task output', () => {
    expect(leaks(outputs)).toEqual([])
  })

  it('keeps secrets out of the project backup', () => {
    const backups = answers.filter(([place]) => /\/backup as/.test(place))
    expect(backups.length).toBe(2)
    expect(backups[0]?.[1]).toContain('production')
    expect(leaks(backups)).toEqual([])
  })

  it('never sends a secret in a websocket frame', () => {
    const frames: Seen = sockets.map((socket, i) => [
      `websocket frames of ${i === 0 ? 'the admin' : 'the guest'}`,
      socket.frames.join('\n'),
    ])
    expect(frames[0]?.[1]).toContain('waiting for release')
    expect(leaks(frames)).toEqual([])
  })

  it('never writes a secret to its log, even at the most verbose level', () => {
    const log = server.output()
    expect(log).toContain('is listening on')
    // The provider and the directory were tried, and the log says so.
    expect(log).toContain('oidc_provider_unavailable')
    expect(log).toContain('LDAP directory sign-in failed')
    expect(leaks([['the server log', log]])).toEqual([])
  })

  it('never puts a secret on a command line', () => {
    expect(commandLines[0]?.[1]).toContain('wait.sh')
    if (urlRepositoryStored) expect(commandLines[1]?.[1]).toContain(`127.0.0.1:${tlsPort}`)
    expect(leaks(commandLines)).toEqual([])
  })

  it('stores secrets only encrypted', async () => {
    const dump = await dumpDatabase(db)
    expect(dump).toContain('API_TOKEN')
    // The second factor and the named token were stored, in some form.
    expect(dump).toMatch(/user_totp: \[\{/)
    expect(dump).toContain('"name":"markers"')
    const places: Seen = [['the database', dump]]
    if (dialect === 'sqlite') places.push(['the SQLite files', readSqliteFiles(server.dataDir)])
    expect(leaks(places)).toEqual([])
  })
})
