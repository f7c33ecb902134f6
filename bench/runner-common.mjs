// Shared set-up of the runner benchmarks: a runner made through the API of a bench server
// (see task-common.mjs), started as a real `flagman runner start` process on this machine.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Creates a global runner carrying `tag` and starts it; resolves once it has polled. */
export async function startRunner(bench, tag) {
  const made = await bench.api('POST', '/api/runners', { name: `bench-${tag}`, tag })
  const dir = mkdtempSync(join(tmpdir(), 'flagman-bench-runner-'))
  const keyFile = join(dir, 'config.runner.key')
  writeFileSync(keyFile, made.private_key, { mode: 0o600 })
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/flagman'),
      'runner',
      'start',
      '--server',
      bench.url,
      '--token',
      made.token,
      '--private-key-file',
      keyFile,
      '--work-dir',
      join(dir, 'work'),
    ],
    { stdio: 'pipe' },
  )
  let log = ''
  child.stdout.on('data', (c) => (log += c))
  child.stderr.on('data', (c) => (log += c))
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runner did not connect\n${log}`)), 30_000)
    child.stdout.on('data', () => {
      if (/Connected to the server/.test(log)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', () => reject(new Error(`runner exited\n${log}`)))
  })
  return {
    id: made.id,
    pid: child.pid,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
