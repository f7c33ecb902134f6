import type { JobLine } from '@flagman/contract'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encodedForms, LineSink } from '../src/output.js'
import { makeRepo, makeSpec, start } from './helpers.js'

/** Masks the lines with a sink holding the secrets. */
function masked(secrets: string[], lines: string[]): string[] {
  const out: JobLine[] = []
  const sink = new LineSink((batch) => out.push(...batch), secrets)
  for (const line of lines) sink.push(line)
  sink.flush()
  return out.map((l) => l.output)
}

const b64 = (text: string): string => Buffer.from(text).toString('base64')
const b64url = (text: string): string => Buffer.from(text).toString('base64url')

describe('masking encoded secrets', () => {
  // 34 characters: its base64 has padding, and both + and / (so the URL-safe form differs).
  const secret = 'Tr0ub4dor&3 horse/battery+staple?>'

  it('hides base64 (standard, URL-safe, with and without padding) and URL encodings', () => {
    const forms = [
      b64(secret),
      b64(secret).replace(/=+$/, ''),
      b64url(secret),
      `${b64url(secret)}==`,
      b64(secret)
        .replace(/=+$/, '')
        .replace(/[+/]/g, (c) => (c === '+' ? '-' : '_')),
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      new URLSearchParams({ q: secret }).toString().slice(2),
    ]
    expect(b64(secret)).toMatch(/[+/].*==$/)
    expect(b64(secret)).not.toBe(`${b64url(secret)}==`)
    const out = masked(
      [secret],
      forms.map((form) => `value=[${form}] end`),
    )
    expect(out).toEqual(forms.map(() => 'value=[****] end'))
  })

  it('hides the JSON-escaped forms tools print a value in', () => {
    const quoted = 'pa"ss\\word/é'
    const json = JSON.stringify(quoted).slice(1, -1)
    const ascii = 'pa\\"ss\\\\word/\\u00e9'
    expect(json).not.toBe(quoted)
    const out = masked([quoted], [`"secret": "${json}"`, `{"secret": "${ascii}"}`])
    expect(out).toEqual(['"secret": "****"', '{"secret": "****"}'])
  })

  it('hides URL encodings that keep slashes or escape every reserved character', () => {
    const value = "MARKER-q/it's(1)*"
    const python = 'MARKER-q/it%27s%281%29%2A'
    const strict = 'MARKER-q%2Fit%27s%281%29%2A'
    const uri = encodeURIComponent(value).replace(/%2F/g, '/')
    expect(masked([value], [`a ${python}`, `b ${strict}`, `c ${uri}`])).toEqual([
      'a ****',
      'b ****',
      'c ****',
    ])
  })

  it('hides the secret inside a longer base64 text, whatever its offset', () => {
    for (const before of ['', 'a', 'ab', 'abc', 'user:']) {
      for (const after of ['', 'x', 'xy', '\n--end--']) {
        const encoded = b64(`${before}${secret}${after}`)
        const [line = ''] = masked([secret], [`Basic ${encoded}`])
        const [head = '', tail = '', ...more] = line.slice('Basic '.length).split('****')
        expect(more, line).toEqual([])
        // All of the secret's characters are hidden but the 1 or 2 it shares with a neighbour
        // at either end (6 bits at most each).
        const hidden = encoded.length - head.length - tail.length
        expect(hidden, `${before}|${after}`).toBeGreaterThanOrEqual(
          Math.ceil((secret.length * 4) / 3) - 4,
        )
      }
    }
  })

  it('hides each line of a multi-line secret, and the whole of it encoded at once', () => {
    const lines = Array.from({ length: 40 }, () => randomBytes(48).toString('base64'))
    const key = `-----BEGIN KEY-----\n${lines.join('\n')}\n-----END KEY-----`
    const out = masked(
      [key],
      [
        `line ${lines[7] ?? ''} end`,
        b64(key),
        // A key file: the same text with a newline more.
        b64(`${key}\n`),
        b64url(`${key}\r\n`),
        `${b64(key).slice(0, 20)}...`,
      ],
    )
    expect(out[0]).toBe('line **** end')
    expect(out[1]).toBe('****')
    expect(out[2]).toMatch(/^\*{4}.{0,4}$/)
    expect(out[3]).toMatch(/^\*{4}.{0,4}$/)
    // The beginning of the file is its header, which is no secret.
    expect(out[4]).toBe(`${b64(key).slice(0, 20)}...`)
  })

  it('leaves text alone that only looks like a short encoded secret', () => {
    // A 3-character secret encodes to 4 characters: too short to hide without hiding words.
    expect(masked(['abc'], ['YWJj abc'])).toEqual(['YWJj ****'])
    expect(encodedForms('abc')).toEqual([])
    expect(masked([secret], ['nothing to hide here'])).toEqual(['nothing to hide here'])
  })

  it('masks what a real script prints encoded', async () => {
    const repo = makeRepo({
      'encode.sh': `printf '%s' "$TOKEN" | base64 -w0; echo
printf '%s' "$TOKEN" | base64 -w0 | tr '+/' '-_' | tr -d '='; echo
printf 'user:%s' "$TOKEN" | base64 -w0; echo
python3 -c 'import os, urllib.parse as u; print(u.quote(os.environ["TOKEN"], safe="")); print(u.quote_plus(os.environ["TOKEN"]))'
`,
    })
    const spec = makeSpec({
      playbook: 'encode.sh',
      repository: { id: 1, url: repo, branch: '', key: { type: 'none' } },
      env: { TOKEN: secret },
      secretsToMask: [secret],
    })
    const { handle, rec } = start(spec)
    expect(await handle.done, rec.text()).toBe('success')
    const printed = rec.lines.map((l) => l.output).filter((l) => l.includes('*'))
    expect(printed).toHaveLength(5)
    expect(printed[0]).toBe('****')
    expect(printed[1]).toBe('****')
    expect(printed[2]).toMatch(/^.{0,12}\*\*\*\*.{0,4}$/)
    expect(printed[3]).toBe('****')
    expect(printed[4]).toBe('****')
  })

  it('finds an encoded key among other secrets, and leaves other lines as they are', () => {
    const lines = Array.from({ length: 50 }, () => randomBytes(48).toString('base64'))
    const key = `-----BEGIN KEY-----\n${lines.join('\n')}\n-----END KEY-----\n`
    const sink = new LineSink(() => {}, [key, secret, 'another-secret-value'])
    const text = 'TASK [debug] ok: [localhost] => { "msg": "value 12345 of the run" }'
    for (let i = 0; i < 10_000; i += 1) expect(sink.mask(text)).toBe(text)
    expect(sink.mask(`x ${b64url(key)} y ${lines[3] ?? ''}`)).toBe('x **** y ****')
  })
})
