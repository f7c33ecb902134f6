/*
 * The runner's own log: one line per event on stdout, errors on stderr. It carries job ids,
 * statuses and errors only — never a job's output, variables or keys, which may hold secrets.
 */

function stamp(): string {
  return new Date().toISOString()
}

export function say(message: string): void {
  process.stdout.write(`${stamp()} ${message}\n`)
}

export function sayError(message: string): void {
  process.stderr.write(`${stamp()} ${message}\n`)
}
