/** The file name the runner command reads the private key from (`--private-key-file`). */
export const RUNNER_KEY_FILE = 'config.runner.key'

/** The private key is shown cut to this many characters; copy and download carry it whole. */
export const RUNNER_KEY_DISPLAY_LENGTH = 90

/** The private key as the dialog shows it. */
export function cutRunnerKey(key: string): string {
  return key.length > RUNNER_KEY_DISPLAY_LENGTH
    ? `${key.slice(0, RUNNER_KEY_DISPLAY_LENGTH)}…`
    : key
}

/** A shell word; quoted only when it holds characters a shell would read otherwise. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@,=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/i

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname
  } catch {
    return null
  }
}

/**
 * The address runners reach the server at: its web host, else this page's origin. A server
 * without a configured web host reports `localhost`, which a runner on another machine can
 * not reach; the address the browser uses is then the better guess.
 */
export function runnerServerUrl(webHost: string, origin: string): string {
  const host = hostOf(webHost.trim())
  const loopbackOnly = host !== null && LOOPBACK.test(host) && !LOOPBACK.test(hostOf(origin) ?? '')
  return (host === null || loopbackOnly ? origin : webHost.trim()).replace(/\/+$/, '')
}

/** The command that starts a runner created in the console, with the key saved beside it. */
export function runnerStartCommand(options: {
  server: string
  token: string
  tags?: string
}): string {
  const words = [
    'flagman runner start',
    `--server ${shellWord(options.server)}`,
    `--token ${shellWord(options.token)}`,
    `--private-key-file ${RUNNER_KEY_FILE}`,
  ]
  if (options.tags) words.push(`--tags ${shellWord(options.tags)}`)
  return words.join(' ')
}

/** Saves a text as a file through the browser's download. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.appendChild(link)
  link.click()
  link.remove()
  // Revoked once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
