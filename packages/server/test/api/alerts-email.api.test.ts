import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Project, TestAlertResult } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selfSignedCertificate, SmtpReceiver } from '../support/alert-receivers.js'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectNoContent } from '../support/http.js'
import { FLAGMAN_BIN, inheritedEnv, startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

const SMTP_USER = 'mailer'
const SMTP_PASSWORD = 'smtp-Secret-Passw0rd'

/** The mail settings of a server sending to `smtp` with `security`, optionally signing in. */
function emailEnv(
  smtp: SmtpReceiver,
  security: 'none' | 'starttls' | 'tls',
  password?: string,
): Record<string, string> {
  return {
    FLAGMAN_ALERT_EMAIL_HOST: '127.0.0.1',
    FLAGMAN_ALERT_EMAIL_PORT: String(smtp.port),
    FLAGMAN_ALERT_EMAIL_SENDER: 'alerts@example.test',
    FLAGMAN_ALERT_EMAIL_SECURITY: security,
    ...(password === undefined
      ? {}
      : { FLAGMAN_ALERT_EMAIL_USERNAME: SMTP_USER, FLAGMAN_ALERT_EMAIL_PASSWORD: password }),
  }
}

describe.each(dialects())('email alerts on %s', (dialect) => {
  let certificate: ReturnType<typeof selfSignedCertificate>
  let repo: ReturnType<typeof gitFixture>
  const servers: TestServer[] = []
  const receivers: SmtpReceiver[] = []

  beforeAll(() => {
    certificate = selfSignedCertificate()
    repo = gitFixture()
  })

  afterAll(async () => {
    for (const s of servers) await s.stop()
    for (const r of receivers) await r.close()
    certificate?.dispose()
    repo?.dispose()
  })

  async function setUp(
    smtpOptions: Parameters<typeof SmtpReceiver.start>[0],
    env: (smtp: SmtpReceiver) => Record<string, string>,
  ) {
    const smtp = await SmtpReceiver.start(smtpOptions, certificate)
    receivers.push(smtp)
    // The server trusts the test certificate the way an operator would add a private CA.
    const server = await startTestServer(dialect, {
      ...env(smtp),
      NODE_EXTRA_CA_CERTS: certificate.certFile,
    })
    servers.push(server)
    const world = new World(server)
    await activateScriptApps(world)
    const tp = await TaskProject.create(world, repo.path)
    const current = await tp.p.get('', Project)
    expectNoContent(await tp.p.request('PUT', '', { name: current.name, alert: true }))
    const admin = await world.admin()
    // The administrator wants alerts too.
    expectNoContent(
      await world.request('PUT', `/api/users/${admin.id}`, {
        as: admin.as,
        json: { username: admin.username, name: admin.name, email: admin.email, alert: true },
      }),
    )
    return { smtp, server, world, tp, admin }
  }

  it('signs in over STARTTLS, and sends a failed task to the administrator', async () => {
    const { smtp, tp, admin } = await setUp(
      { credentials: { user: SMTP_USER, password: SMTP_PASSWORD }, tls: 'starttls' },
      (s) => emailEnv(s, 'starttls', SMTP_PASSWORD),
    )
    const task = await tp.run(await tp.template('fail.sh'))
    expect((await tp.waitFor(task.id)).status).toBe('error')
    await tp.waitForLine(task.id, /^Sent successfully email alert$/)
    const [mail] = await smtp.waitFor(1)
    expect(mail!.to).toEqual([admin.email])
    expect(mail!.user).toBe(SMTP_USER)
    expect(mail!.secure).toBe(true)
    expect(mail!.body).toContain(`Task ${task.id} with template`)
    const log = (await tp.lines(task.id)).join('\n')
    expect(log).toContain('Attempting to send email alert')
    expect(log).not.toContain(SMTP_PASSWORD)

    const test = expectBody(await tp.p.request('POST', '/alerts/test'), 200, TestAlertResult)
    expect(test.channels).toEqual([
      { channel: 'email', ok: true, message: 'Sent successfully email alert' },
    ])
  })

  it('reports a refused sign-in over implicit TLS with the response code, never the password', async () => {
    const wrong = 'wrong-Secret-Passw0rd'
    const { smtp, tp } = await setUp(
      { credentials: { user: SMTP_USER, password: SMTP_PASSWORD }, tls: 'tls' },
      (s) => emailEnv(s, 'tls', wrong),
    )
    const test = expectBody(await tp.p.request('POST', '/alerts/test'), 200, TestAlertResult)
    expect(test.channels).toEqual([
      { channel: 'email', ok: false, message: "Can't send email alert! Response code: 535" },
    ])
    expect(smtp.refusedLogins).toBeGreaterThan(0)

    const task = await tp.run(await tp.template('fail.sh'))
    expect((await tp.waitFor(task.id)).status).toBe('error')
    await tp.waitForLine(task.id, /^Can't send email alert! Response code: 535$/)
    const log = (await tp.lines(task.id)).join('\n')
    expect(log).not.toContain(wrong)
    expect(smtp.mails).toEqual([])
  })

  it('sends plain mail without signing in, and reports a mail server that is down', async () => {
    const { smtp, tp, admin } = await setUp({}, (s) => emailEnv(s, 'none'))
    const test = expectBody(await tp.p.request('POST', '/alerts/test'), 200, TestAlertResult)
    expect(test.channels).toEqual([
      { channel: 'email', ok: true, message: 'Sent successfully email alert' },
    ])
    const [mail] = await smtp.waitFor(1)
    expect(mail!.to).toEqual([admin.email])
    expect(mail!.user).toBe('')
    expect(mail!.secure).toBe(false)
    expect(mail!.subject).toMatch(/^Test alert of project '/)

    await smtp.close()
    receivers.splice(receivers.indexOf(smtp), 1)
    const down = expectBody(await tp.p.request('POST', '/alerts/test'), 200, TestAlertResult)
    expect(down.channels).toEqual([
      { channel: 'email', ok: false, message: "Can't send email alert! Error: connection refused" },
    ])
  })
})

describe('alert settings', () => {
  it('refuses a malformed URL at start with one line naming the setting', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flagman-alert-setting-'))
    try {
      const result = spawnSync(process.execPath, [FLAGMAN_BIN, 'server'], {
        env: {
          ...inheritedEnv(),
          FLAGMAN_HOST: '127.0.0.1',
          FLAGMAN_PORT: '0',
          FLAGMAN_DATA_DIR: dataDir,
          FLAGMAN_ALERT_SLACK_URL: 'hooks.example.test/services/SECRET-PART',
        },
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(result.status).not.toBe(0)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().split('\n')).toEqual([
        'flagman: Invalid setting FLAGMAN_ALERT_SLACK_URL: not a URL',
      ])
      expect(result.stderr).not.toContain('SECRET-PART')
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
