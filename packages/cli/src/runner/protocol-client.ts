/*
 * The runner's side of `/api/internal/runners`: registration, the long poll, progress
 * reports and unregistration. Every answer the server may give is turned into a result or
 * one of the errors below, so the loop decides what to retry and what ends the runner.
 */
import { openHybrid } from '@flagman/executor'
import {
  RegisteredRunner,
  RUNNER_TOKEN_HEADER,
  RunnerPollAnswer,
  type RegisterRunnerBody,
} from '@flagman/contract'

/** The server does not know the token (401/404): the runner was deleted or never existed. */
export class RunnerRefusedError extends Error {}

/** The server could not be reached or answered oddly; worth trying again later. */
export class TransientError extends Error {}

/** The server refused a progress report (400): nothing of the batch was written. */
export class ReportRefusedError extends Error {}

/** The report was bigger than the server accepts (413). */
export class ReportTooLargeError extends Error {}

async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string' && body.error !== '') return body.error
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${response.status}`
}

/** Strips a trailing slash so paths can be appended. */
export function serverBase(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`${url} is not a URL; give the server's address, e.g. http://host:3000`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${url} is not an http or https URL`)
  }
  return url.replace(/\/+$/, '')
}

/** Registers with the server's registration token; answers the new runner's token. */
export async function registerRunner(server: string, body: RegisterRunnerBody): Promise<string> {
  const url = `${serverBase(server)}/api/internal/runners`
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  } catch (error) {
    throw new Error(`Cannot reach ${server}: ${describeFetchError(error)}`, { cause: error })
  }
  if (response.status !== 200) {
    throw new Error(`The server refused the registration: ${await errorText(response)}`)
  }
  const parsed = RegisteredRunner.safeParse(await response.json().catch(() => null))
  if (!parsed.success) throw new Error('The server answered the registration without a token')
  return parsed.data.token
}

export function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause
    if (cause instanceof Error && cause.message) return cause.message
    return error.message
  }
  return String(error)
}

export interface PollOptions {
  /** Seconds the server may hold the answer. */
  wait: number
  tags?: string[]
  maxParallelTasks?: number
  signal?: AbortSignal
}

export class ProtocolClient {
  private readonly base: string

  constructor(
    server: string,
    private readonly token: string,
    /** PEM of the runner's private key; null when the runner has none. */
    private readonly privateKeyPem: string | null,
  ) {
    this.base = `${serverBase(server)}/api/internal/runners`
  }

  private async call(method: string, init: RequestInit & { query?: string } = {}) {
    const { query, ...rest } = init
    let response: Response
    try {
      response = await fetch(`${this.base}${query ?? ''}`, {
        ...rest,
        method,
        headers: {
          [RUNNER_TOKEN_HEADER]: this.token,
          ...(rest.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
      })
    } catch (error) {
      if (init.signal?.aborted) throw error
      throw new TransientError(describeFetchError(error), { cause: error })
    }
    if (response.status === 401 || response.status === 404) {
      throw new RunnerRefusedError(
        `The server refused the runner token (${await errorText(response)}): ` +
          'the runner was deleted or its token is wrong',
      )
    }
    return response
  }

  /** The poll: what the runner should work on now, decrypted and checked. */
  async poll(options: PollOptions): Promise<RunnerPollAnswer> {
    const query = new URLSearchParams({ wait: String(options.wait), encryption: 'hybrid' })
    if (options.tags !== undefined) query.set('tags', options.tags.join(','))
    if (options.maxParallelTasks !== undefined) {
      query.set('max_parallel_tasks', String(options.maxParallelTasks))
    }
    const response = await this.call('GET', { query: `?${query}`, signal: options.signal })
    if (response.status !== 200) {
      throw new TransientError(`the poll answered ${await errorText(response)}`)
    }
    let body: Buffer
    try {
      body = Buffer.from(await response.arrayBuffer())
    } catch (error) {
      if (options.signal?.aborted) throw error
      throw new TransientError(`the poll answer was cut off: ${describeFetchError(error)}`)
    }
    let json: string
    if ((response.headers.get('content-type') ?? '').startsWith('application/octet-stream')) {
      if (this.privateKeyPem === null) {
        throw new RunnerRefusedError(
          'The server sends jobs encrypted to a key this runner does not have: ' +
            'give --private-key-file (the config.runner.key shown when the runner was created)',
        )
      }
      try {
        json = openHybrid(body, this.privateKeyPem).toString('utf8')
      } catch {
        throw new RunnerRefusedError(
          'Cannot decrypt the poll answer: the private key file does not belong to this runner',
        )
      }
    } else {
      json = body.toString('utf8')
    }
    let raw: unknown
    try {
      raw = JSON.parse(json)
    } catch {
      throw new TransientError('the poll answer is not JSON')
    }
    const parsed = RunnerPollAnswer.safeParse(raw)
    if (!parsed.success) throw new TransientError('the poll answer does not have the runner fields')
    return parsed.data
  }

  /** Sends one progress batch (`{Jobs:[…]}`, already JSON); resolves once the server stored it (204). */
  async report(body: string): Promise<void> {
    const response = await this.call('PUT', { body })
    if (response.status === 204 || response.status === 200) {
      await response.arrayBuffer().catch(() => undefined)
      return
    }
    const message = await errorText(response)
    if (response.status === 400) throw new ReportRefusedError(message)
    if (response.status === 413) throw new ReportTooLargeError(message)
    throw new TransientError(`the progress report answered ${message}`)
  }

  async unregister(): Promise<void> {
    const response = await this.call('DELETE')
    if (response.status !== 204 && response.status !== 200) {
      throw new Error(`The server refused to unregister the runner: ${await errorText(response)}`)
    }
  }
}
