import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

/** One request a chat receiver got. */
export interface ReceivedRequest {
  method: string
  /** Path with query string, e.g. `/gotify/message?token=…`. */
  path: string
  headers: IncomingHttpHeaders
  /** The body's exact bytes as text (a signature covers these). */
  raw: string
  body: unknown
}

/** What a receiver answers: a status code, or `hang` (never answers). */
export type Answer = number | 'hang'

async function until<T>(what: string, read: () => T | null, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * An HTTP server on 127.0.0.1 standing in for every chat service at once: each channel is
 * pointed at its own path, and `answer` decides per request what it replies.
 */
export class ChatReceiver {
  readonly requests: ReceivedRequest[] = []
  /** Replies by path prefix; the default is 200. */
  answer: (request: ReceivedRequest) => Answer = () => 200
  private readonly hanging = new Set<ServerResponse>()

  private server!: ReturnType<typeof createServer>
  url = ''

  private constructor() {}

  static async start(): Promise<ChatReceiver> {
    const receiver = new ChatReceiver()
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        let body: unknown
        try {
          body = JSON.parse(raw)
        } catch {
          body = null
        }
        const request = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          raw,
          body,
        }
        receiver.requests.push(request)
        const answer = receiver.answer(request)
        if (answer === 'hang') {
          receiver.hanging.add(res)
          return
        }
        res.writeHead(answer, { 'Content-Type': 'application/json' })
        res.end('{"ok":true}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    receiver.server = server
    receiver.url = `http://127.0.0.1:${port}`
    return receiver
  }

  /** Requests whose path starts with `prefix`. */
  at(prefix: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix))
  }

  /** Waits until `count` requests have come to paths starting with `prefix`. */
  waitFor(prefix: string, count = 1, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    return until(
      `${count} request(s) at ${prefix}`,
      () => {
        const found = this.at(prefix)
        return found.length >= count ? found : null
      },
      timeoutMs,
    )
  }

  clear(): void {
    this.requests.length = 0
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

/** One mail an SMTP receiver accepted. */
export interface ReceivedMail {
  from: string
  to: string[]
  /** The signed-in user; empty without authentication. */
  user: string
  /** Whether the connection was encrypted when the mail came. */
  secure: boolean
  headers: Record<string, string>
  subject: string
  /** The decoded body. */
  body: string
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = []
  const joined = text.replace(/=\r?\n/g, '')
  for (let i = 0; i < joined.length; i += 1) {
    const c = joined[i]!
    if (c === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(c, 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

/** Splits a single-part message into its (unfolded, lower-cased) headers and decoded body. */
export function parseMail(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const encoded = raw.slice(split + 4)
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  const body =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(encoded)
      : encoding === 'base64'
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : encoded
  return { headers, body: body.replace(/\r\n/g, '\n') }
}

export interface SmtpOptions {
  /** Accepted credentials; without them the server takes mail without authentication. */
  credentials?: { user: string; password: string }
  /** `starttls`: offers STARTTLS; `tls`: TLS from the first byte; default plain only. */
  tls?: 'starttls' | 'tls'
}

/** A self-signed certificate for 127.0.0.1, in a temp folder (the server trusts it by file). */
export function selfSignedCertificate(): {
  key: string
  cert: string
  certFile: string
  dispose(): void
} {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-cert-'))
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  )
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** An SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps what it is sent. */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = []
  /** Failed sign-in attempts. */
  refusedLogins = 0

  private server!: SMTPServer
  port = 0

  private constructor() {}

  static async start(
    options: SmtpOptions = {},
    certificate?: { key: string; cert: string },
  ): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver()
    const credentials = options.credentials
    const config: SMTPServerOptions = {
      logger: false,
      secure: options.tls === 'tls',
      ...(certificate ? { key: certificate.key, cert: certificate.cert } : {}),
      disabledCommands: options.tls ? [] : ['STARTTLS'],
      authOptional: !credentials,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        if (
          credentials &&
          auth.username === credentials.user &&
          auth.password === credentials.password
        ) {
          callback(null, { user: auth.username })
          return
        }
        receiver.refusedLogins += 1
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          const { headers, body } = parseMail(Buffer.concat(chunks).toString('utf8'))
          receiver.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : '',
            secure: session.secure,
            headers,
            subject: headers.subject ?? '',
            body,
          })
          callback()
        })
      },
    }
    const server = new SMTPServer(config)
    server.on('error', () => {})
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.server.address() as AddressInfo
    receiver.server = server
    receiver.port = port
    return receiver
  }

  waitFor(count = 1, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    return until(
      `${count} mail(s)`,
      () => (this.mails.length >= count ? this.mails : null),
      timeoutMs,
    )
  }

  clear(): void {
    this.mails.length = 0
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
