import { createHmac } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Project, TestAlertResult, User } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChatReceiver, SmtpReceiver, type ReceivedRequest } from '../support/alert-receivers.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, SCRIPTS, TaskProject } from '../support/tasks.js'
import { setAppsActive } from '../support/templates.js'

const WEB_HOST = 'https://flagman.example.test'
/** Secret parts of the settings: none may ever appear in a task log or an answer. */
const SECRETS = {
  telegram: '123456:TELEGRAM-SECRET-TOKEN',
  slack: 'SLACK-SECRET-PATH',
  teams: 'TEAMS-SECRET-PATH',
  rocketchat: 'ROCKET-SECRET-PATH',
  dingtalk: 'DINGTALK-SECRET-TOKEN',
  gotify: 'GOTIFY-SECRET-TOKEN',
  discord: 'DISCORD-SECRET-PATH',
  mattermost: 'MATTERMOST-SECRET-PATH',
  webhook: 'WEBHOOK-SECRET-PATH',
  webhookSecret: 'webhook-signing-secret',
}
const SERVER_CHAT = '-1001234'

/** A stand-in `terraform` whose plan has changes, so its tasks wait for confirmation. */
function terraformStandIn(): string {
  const bin = mkdtempSync(join(tmpdir(), 'flagman-alert-bin-'))
  writeFileSync(
    join(bin, 'terraform'),
    '#!/bin/bash\ncase "$1" in\n  plan) echo "Plan: 1 to add, 0 to change, 0 to destroy." ;;\nesac\n',
  )
  chmodSync(join(bin, 'terraform'), 0o755)
  return bin
}

/** Log names of the chat channels, in the order they are sent. */
const CHAT_LABELS = [
  'telegram',
  'slack',
  'microsoft teams',
  'rocketchat',
  'dingtalk',
  'gotify',
  'discord',
  'mattermost',
  'webhook',
]

describe.each(dialects())('alerts on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitRepository>
  let terraformBin: string
  let chat: ChatReceiver
  let smtp: SmtpReceiver
  let admin: Person
  /** A member who wants alerts, one who does not, and an administrator (not a member) who does. */
  let wants: { id: number; email: string }
  let quiet: { id: number; email: string }
  let otherAdmin: { id: number; email: string }

  async function createUser(alert: boolean, isAdmin = false) {
    const username = unique('alerted')
    const body = {
      username,
      name: `Name of ${username}`,
      email: `${username}@example.test`,
      password: `pw-${username}`,
      admin: isAdmin,
      alert,
    }
    const user = expectBody(
      await world.request('POST', '/api/users', { as: admin.as, json: body }),
      201,
      User,
    )
    return { id: user.id, email: user.email }
  }

  /** A project with the repository, its alert switch and chat set, and the two members. */
  async function project(fields: {
    alert: boolean
    alert_chat?: string | null
  }): Promise<TaskProject> {
    const tp = await TaskProject.create(world, repo.path)
    const current = await tp.p.get('', Project)
    expectNoContent(await tp.p.request('PUT', '', { name: current.name, ...fields }))
    await world.addMember(tp.p.projectId, wants.id, 'task_runner')
    await world.addMember(tp.p.projectId, quiet.id, 'manager')
    return tp
  }

  /** Requests about one task (every message carries the task's link). */
  const about = (taskId: number, requests: ReceivedRequest[]) =>
    requests.filter((r) => r.raw.includes(`?t=${taskId}`))

  async function waitForAlerts(
    tp: TaskProject,
    taskId: number,
    lines: string[],
  ): Promise<string[]> {
    for (const line of lines) {
      await tp.waitForLine(taskId, new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
    }
    return tp.lines(taskId)
  }

  /** Polls until the task's log holds `line` `count` times. */
  async function waitForCount(
    tp: TaskProject,
    taskId: number,
    line: string,
    count: number,
  ): Promise<string[]> {
    const deadline = Date.now() + 20_000
    for (;;) {
      const lines = await tp.lines(taskId)
      if (lines.filter((l) => l === line).length >= count) return lines
      if (Date.now() > deadline) throw new Error(`task ${taskId} never logged ${count} × ${line}`)
      await new Promise((r) => setTimeout(r, 40))
    }
  }

  function expectNoSecret(text: string): void {
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret)
    expect(text).not.toContain(chat.url)
  }

  beforeAll(async () => {
    repo = gitRepository({ ...SCRIPTS, 'main.tf': '# module\n' })
    terraformBin = terraformStandIn()
    chat = await ChatReceiver.start()
    smtp = await SmtpReceiver.start()
    server = await startTestServer(dialect, {
      PATH: `${terraformBin}:${process.env.PATH ?? ''}`,
      FLAGMAN_WEB_HOST: WEB_HOST,
      FLAGMAN_ALERT_EMAIL_HOST: '127.0.0.1',
      FLAGMAN_ALERT_EMAIL_PORT: String(smtp.port),
      FLAGMAN_ALERT_EMAIL_SENDER: 'flagman@example.test',
      FLAGMAN_ALERT_EMAIL_SECURITY: 'none',
      FLAGMAN_ALERT_TELEGRAM_TOKEN: SECRETS.telegram,
      FLAGMAN_ALERT_TELEGRAM_CHAT: SERVER_CHAT,
      FLAGMAN_ALERT_TELEGRAM_API_URL: `${chat.url}/telegram`,
      FLAGMAN_ALERT_SLACK_URL: `${chat.url}/slack/${SECRETS.slack}`,
      FLAGMAN_ALERT_TEAMS_URL: `${chat.url}/teams/${SECRETS.teams}`,
      FLAGMAN_ALERT_ROCKETCHAT_URL: `${chat.url}/rocketchat/${SECRETS.rocketchat}`,
      FLAGMAN_ALERT_DINGTALK_URL: `${chat.url}/dingtalk?access_token=${SECRETS.dingtalk}`,
      FLAGMAN_ALERT_GOTIFY_URL: `${chat.url}/gotify`,
      FLAGMAN_ALERT_GOTIFY_TOKEN: SECRETS.gotify,
      FLAGMAN_ALERT_DISCORD_URL: `${chat.url}/discord/${SECRETS.discord}`,
      FLAGMAN_ALERT_MATTERMOST_URL: `${chat.url}/mattermost/${SECRETS.mattermost}`,
      FLAGMAN_ALERT_WEBHOOK_URL: `${chat.url}/webhook/${SECRETS.webhook}`,
      FLAGMAN_ALERT_WEBHOOK_SECRET: SECRETS.webhookSecret,
    })
    world = new World(server)
    admin = await world.admin()
    await activateScriptApps(world)
    await setAppsActive(world, ['terraform'], true)
    wants = await createUser(true)
    quiet = await createUser(false)
    otherAdmin = await createUser(true, true)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    await chat?.close()
    await smtp?.close()
    repo?.dispose()
    if (terraformBin) rmSync(terraformBin, { recursive: true, force: true })
  })

  it('sends a failed task to every channel, in each one’s shape, and logs each attempt', async () => {
    const tp = await project({ alert: true })
    const name = unique('deploy')
    const tpl = await tp.template('fail.sh', { name })
    const task = await tp.run(tpl, { message: 'nightly <run> & more' })
    expect((await tp.waitFor(task.id)).status).toBe('error')
    const url = `${WEB_HOST}/project/${tp.p.projectId}/templates/${tpl}?t=${task.id}`

    await waitForAlerts(
      tp,
      task.id,
      CHAT_LABELS.map((l) => `Sent successfully ${l} alert`),
    )
    const lines = await waitForCount(tp, task.id, 'Sent successfully email alert', 2)
    for (const label of CHAT_LABELS) {
      expect(lines.filter((l) => l === `Attempting to send ${label} alert`)).toHaveLength(1)
      expect(lines.filter((l) => l === `Sent successfully ${label} alert`)).toHaveLength(1)
    }
    // One mail per recipient: the member and the other administrator who want alerts.
    await waitForCount(tp, task.id, 'Sent successfully email alert', 2)
    const mails = (await smtp.waitFor(2)).filter((m) => m.body.includes(`?t=${task.id}`))
    expect(mails.map((m) => m.to).sort()).toEqual([[otherAdmin.email], [wants.email]].sort())
    for (const mail of mails) {
      expect(mail.from).toBe('flagman@example.test')
      expect(mail.subject).toBe(`Task '${name}' failed`)
      expect(mail.headers['content-type']).toMatch(/^text\/html/)
      expect(mail.headers.date).toMatch(/GMT|\+0000/)
      expect(mail.body).toContain(`Task ${task.id} with template '${name}' has failed!`)
      expect(mail.body).toContain(`<a href="${url}">`)
    }
    expect(lines.filter((l) => l === 'Sent successfully email alert')).toHaveLength(2)

    const one = (prefix: string) => {
      const found = about(task.id, chat.at(prefix))
      expect(found, prefix).toHaveLength(1)
      expect(found[0]!.method).toBe('POST')
      expect(found[0]!.headers['content-type']).toBe('application/json')
      return found[0]!
    }
    const author = admin.name
    const telegram = one('/telegram')
    expect(telegram.path).toBe(`/telegram/bot${SECRETS.telegram}/sendMessage`)
    expect(telegram.body).toEqual({
      chat_id: SERVER_CHAT,
      parse_mode: 'HTML',
      text:
        `<code>${name}</code>\n#${task.id} <b>❌ERROR</b> <code></code> ` +
        `nightly &lt;run&gt; &amp; more\nby ${author}\n${url}`,
    })
    const attachment = (color: string) => ({
      attachments: [
        {
          title: `Task: ${name}`,
          title_link: url,
          text: `execution ID #${task.id}, status: ❌ERROR!`,
          color,
          mrkdwn_in: ['text'],
          fields: [
            { title: 'Author', value: author, short: true },
            { title: 'Version', value: '', short: true },
          ],
        },
      ],
    })
    expect(one('/slack').path).toBe(`/slack/${SECRETS.slack}`)
    expect(one('/slack').body).toEqual(attachment('danger'))
    expect(one('/rocketchat').body).toEqual(attachment('#EE0000'))
    expect(one('/mattermost').body).toEqual(attachment('#EE0000'))
    expect(one('/teams').body).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                size: 'Medium',
                weight: 'Bolder',
                text: `Ansible Task Template Execution by: ${author}`,
              },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Task:', value: name },
                  { title: 'Status:', value: '❌ERROR' },
                  { title: 'Task ID:', value: String(task.id) },
                ],
              },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Task URL', url }],
          },
        },
      ],
    })
    const dingtalk = one('/dingtalk')
    expect(dingtalk.path).toBe(`/dingtalk?access_token=${SECRETS.dingtalk}`)
    expect(dingtalk.body).toEqual({
      msgtype: 'markdown',
      markdown: {
        title: `Task: ${name}`,
        text:
          `### Task: ${name}\n\nExecution #: ${task.id}\n\nStatus: ❌ERROR\n\n` +
          `Author: ${author}\n\nVersion: \n\n[Task Link](${url})`,
      },
    })
    const gotify = one('/gotify')
    expect(gotify.path).toBe(`/gotify/message?token=${SECRETS.gotify}`)
    expect(gotify.body).toEqual({
      title: `Task: ${name}`,
      message:
        `Execution ID: #${task.id}\n\nStatus: ❌ERROR\n\nAuthor: ${author}\n\n` +
        `Version: \n\n[Task Link](${url})`,
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url } },
      },
    })
    expect(one('/discord').body).toEqual({
      embeds: [
        {
          title: `Task: ${name}`,
          url,
          description: `execution ID #${task.id}, status: ❌ERROR!`,
          color: 0xee0000,
          fields: [
            { name: 'Author', value: author, inline: true },
            { name: 'Version', value: '—', inline: true },
          ],
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    })

    // The generic webhook: a documented body, signed with HMAC-SHA256 of its exact bytes.
    const webhook = one('/webhook')
    expect(webhook.body).toEqual({
      event: 'task.error',
      task_id: task.id,
      status: 'error',
      result: '❌ERROR',
      template: { id: tpl, name },
      project: { id: tp.p.projectId, name: expect.any(String) },
      author,
      version: '',
      message: 'nightly <run> & more',
      url,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    const signature = createHmac('sha256', SECRETS.webhookSecret).update(webhook.raw).digest('hex')
    expect(webhook.headers['x-flagman-signature']).toBe(`sha256=${signature}`)
    expect(webhook.headers['x-flagman-event']).toBe('task.error')

    expectNoSecret(lines.join('\n'))
    expectNoSecret((await tp.p.request('GET', `/tasks/${task.id}/raw_output`)).text)
  })

  it('sends success to chat channels only, and honours suppress_success_alerts', async () => {
    const tp = await project({ alert: true, alert_chat: '@ops-room' })
    const suppressed = await tp.run(await tp.template('ok.sh', { suppress_success_alerts: true }))
    expect((await tp.waitFor(suppressed.id)).status).toBe('success')
    // A suppressing template still alerts on error.
    const suppressedFail = await tp.run(
      await tp.template('fail.sh', { suppress_success_alerts: true }),
    )
    expect((await tp.waitFor(suppressedFail.id)).status).toBe('error')
    await waitForAlerts(tp, suppressedFail.id, ['Sent successfully webhook alert'])

    const name = unique('build')
    const tpl = await tp.template('ok.sh', { name })
    const task = await tp.run(tpl)
    expect((await tp.waitFor(task.id)).status).toBe('success')
    const lines = await waitForAlerts(
      tp,
      task.id,
      CHAT_LABELS.map((l) => `Sent successfully ${l} alert`),
    )
    expect(lines.some((l) => l.includes('email alert'))).toBe(false)
    expect(smtp.mails.filter((m) => m.body.includes(`?t=${task.id}`))).toEqual([])

    // The project's chat overrides the server's.
    const telegram = about(task.id, chat.at('/telegram'))
    expect(telegram).toHaveLength(1)
    expect((telegram[0]!.body as { chat_id: string }).chat_id).toBe('@ops-room')
    expect((telegram[0]!.body as { text: string }).text).toContain('<b>✅SUCCESS</b>')
    expect(
      (about(task.id, chat.at('/slack'))[0]!.body as { attachments: { color: string }[] })
        .attachments[0]!.color,
    ).toBe('good')
    expect(
      (about(task.id, chat.at('/rocketchat'))[0]!.body as { attachments: { color: string }[] })
        .attachments[0]!.color,
    ).toBe('#00EE00')

    // The suppressed success sent nothing, and its log says no attempt.
    expect(about(suppressed.id, chat.requests)).toEqual([])
    expect((await tp.lines(suppressed.id)).some((l) => l.includes('alert'))).toBe(false)
    expect(about(suppressedFail.id, chat.at('/webhook'))).toHaveLength(1)
  })

  it('never suppresses waiting for confirmation', async () => {
    const tp = await project({ alert: true })
    const tpl = await tp.template('', { app: 'terraform', suppress_success_alerts: true })
    const task = await tp.run(tpl)
    await tp.waitFor(task.id, ['waiting_confirmation'], 30_000)
    await waitForAlerts(
      tp,
      task.id,
      CHAT_LABELS.map((l) => `Sent successfully ${l} alert`),
    )
    const webhook = about(task.id, chat.at('/webhook'))
    expect(webhook.map((r) => (r.body as { event: string }).event)).toEqual([
      'task.waiting_confirmation',
    ])
    const telegram = about(task.id, chat.at('/telegram'))[0]!.body as { text: string }
    expect(telegram.text).toContain('<b>⚠️WAITING_CONFIRMATION</b>')
    const slack = about(task.id, chat.at('/slack'))[0]!.body as { attachments: { color: string }[] }
    expect(slack.attachments[0]!.color).toBe('#FFFC33')
    // No mail: email is for failures only.
    expect(smtp.mails.filter((m) => m.body.includes(`?t=${task.id}`))).toEqual([])

    // Confirmed, it succeeds, and the template suppresses that alert.
    expectNoContent(await tp.p.request('POST', `/tasks/${task.id}/confirm`))
    expect((await tp.waitFor(task.id)).status).toBe('success')
    const later = await tp.run(await tp.template('fail.sh'))
    expect((await tp.waitFor(later.id)).status).toBe('error')
    await waitForAlerts(tp, later.id, ['Sent successfully webhook alert'])
    expect(about(task.id, chat.at('/webhook'))).toHaveLength(1)
  })

  it('sends nothing when the project switch is off', async () => {
    const off = await project({ alert: false })
    const failed = await off.run(await off.template('fail.sh'))
    expect((await off.waitFor(failed.id)).status).toBe('error')
    // A later task of a project with alerts on shows the outbox has moved past the first.
    const on = await project({ alert: true })
    const later = await on.run(await on.template('fail.sh'))
    expect((await on.waitFor(later.id)).status).toBe('error')
    await waitForAlerts(on, later.id, [
      'Sent successfully webhook alert',
      'Sent successfully email alert',
    ])
    expect(about(failed.id, chat.requests)).toEqual([])
    expect(smtp.mails.filter((m) => m.body.includes(`?t=${failed.id}`))).toEqual([])
    expect((await off.lines(failed.id)).some((l) => l.includes('alert'))).toBe(false)
    // A project whose tasks have alerts can be deleted with them.
    expectNoContent(await on.p.request('DELETE', ''))
  })

  it('tries three times after a 500, then gives up, and retries a single failure', async () => {
    const tp = await project({ alert: true })
    let discordCalls = 0
    chat.answer = (r) => {
      if (!r.raw.includes(`${WEB_HOST}/project/${tp.p.projectId}/`)) return 200
      if (r.path.startsWith('/mattermost')) return 500
      if (r.path.startsWith('/discord')) return ++discordCalls === 1 ? 500 : 200
      return 200
    }
    try {
      const task = await tp.run(await tp.template('fail.sh'))
      expect((await tp.waitFor(task.id)).status).toBe('error')
      const lines = await waitForAlerts(tp, task.id, [
        'Sent successfully discord alert',
        'Gave up sending mattermost alert after 3 attempts',
      ])
      expect(lines.filter((l) => l === 'Attempting to send mattermost alert')).toHaveLength(3)
      expect(
        lines.filter((l) => l === "Can't send mattermost alert! Response code: 500"),
      ).toHaveLength(3)
      expect(about(task.id, chat.at('/mattermost'))).toHaveLength(3)
      expect(
        lines.filter((l) => l === "Can't send discord alert! Response code: 500"),
      ).toHaveLength(1)
      expect(lines.filter((l) => l === 'Attempting to send discord alert')).toHaveLength(2)
      expect(about(task.id, chat.at('/discord'))).toHaveLength(2)
      expectNoSecret(lines.join('\n'))

      const db = await world.openDb()
      try {
        const rows = await db.kysely
          .selectFrom('alert_outbox')
          .select(['channel', 'status', 'attempts', 'last_error', 'payload', 'recipient'])
          .where('task_id', '=', task.id)
          .execute()
        const mattermost = rows.find((r) => r.channel === 'mattermost')
        expect(mattermost).toMatchObject({
          status: 'failed',
          attempts: 3,
          last_error: 'Response code: 500',
        })
        expect(rows.find((r) => r.channel === 'discord')).toMatchObject({
          status: 'sent',
          attempts: 2,
        })
        // The outbox holds messages, never an address or a secret of a channel.
        expectNoSecret(JSON.stringify(rows))
      } finally {
        await db.destroy()
      }
    } finally {
      chat.answer = () => 200
    }
  }, 30_000)

  it('sends a test alert to every channel and answers each result', async () => {
    const tp = await project({ alert: false, alert_chat: '@test-room' })
    const result = await tp.p.request('POST', '/alerts/test')
    const body = expectBody(result, 200, TestAlertResult)
    expect(body.channels).toEqual(
      [
        'email',
        'telegram',
        'slack',
        'teams',
        'rocketchat',
        'dingtalk',
        'gotify',
        'discord',
        'mattermost',
        'webhook',
      ].map((channel) => ({
        channel,
        ok: true,
        message: `Sent successfully ${channel === 'teams' ? 'microsoft teams' : channel} alert`,
      })),
    )
    // The mail goes to the caller.
    const mail = smtp.mails.find((m) => m.subject.startsWith('Test alert of project'))
    expect(mail?.to).toEqual([admin.email])
    const projectUrl = `${WEB_HOST}/project/${tp.p.projectId}/history`
    const telegram = chat.at('/telegram').filter((r) => r.raw.includes(projectUrl))
    expect((telegram[0]!.body as { chat_id: string }).chat_id).toBe('@test-room')
    const webhook = chat.at('/webhook').find((r) => r.raw.includes(projectUrl))
    expect(webhook?.body).toMatchObject({
      event: 'test',
      status: 'test',
      project: { id: tp.p.projectId },
    })

    // A failing channel answers its failure, naming the channel only.
    chat.answer = (r) => (r.path.startsWith('/slack') ? 503 : 200)
    try {
      const failing = expectBody(await tp.p.request('POST', '/alerts/test'), 200, TestAlertResult)
      expect(failing.channels.find((c) => c.channel === 'slack')).toEqual({
        channel: 'slack',
        ok: false,
        message: "Can't send slack alert! Response code: 503",
      })
      expectNoSecret(JSON.stringify(failing))
    } finally {
      chat.answer = () => 200
    }

    // Owners and administrators only.
    const manager = await world.newUser()
    await world.addMember(tp.p.projectId, manager.id, 'manager')
    expectError(
      await world.request('POST', `/api/project/${tp.p.projectId}/alerts/test`, { as: manager.as }),
      403,
    )
    expectError(await world.request('POST', `/api/project/${tp.p.projectId}/alerts/test`), 401)
  })

  // Last: the hanging receiver's request is still open when the test ends.
  it('ends a task on time while a receiver hangs, and keeps serving', async () => {
    const tp = await project({ alert: true })
    chat.answer = (r) =>
      r.path.startsWith('/teams') && r.raw.includes(`${WEB_HOST}/project/${tp.p.projectId}/`)
        ? 'hang'
        : 200
    const task = await tp.run(await tp.template('fail.sh'))
    const done = await tp.waitFor(task.id)
    expect(done.status).toBe('error')
    expect(done.end).not.toBeNull()
    while (about(task.id, chat.at('/teams')).length === 0)
      await new Promise((r) => setTimeout(r, 25))
    await waitForAlerts(tp, task.id, [
      'Attempting to send microsoft teams alert',
      'Sent successfully webhook alert',
    ])
    // The task is over while its Teams alert is still being sent.
    expect((await tp.task(task.id)).status).toBe('error')
    const lines = await tp.lines(task.id)
    expect(lines.some((l) => /(Sent successfully|Can't send) microsoft teams alert/.test(l))).toBe(
      false,
    )
    const db = await world.openDb()
    try {
      const row = await db.kysely
        .selectFrom('alert_outbox')
        .select(['status'])
        .where('task_id', '=', task.id)
        .where('channel', '=', 'teams')
        .executeTakeFirstOrThrow()
      expect(row.status).toBe('sending')
    } finally {
      await db.destroy()
    }
    expect((await server.fetch('/api/ping')).status).toBe(200)
    const next = await tp.run(await tp.template('ok.sh'))
    expect((await tp.waitFor(next.id)).status).toBe('success')
  })
})
