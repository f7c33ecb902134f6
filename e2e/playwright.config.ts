import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { ADMIN, E2E_PORT } from './support/constants.js'

const dataDir = mkdtempSync(join(tmpdir(), 'flagman-e2e-'))
const baseURL = `http://127.0.0.1:${E2E_PORT}`

/** Every setting the server gets: nothing else from the caller's `FLAGMAN_*` environment. */
const serverEnv: Record<string, string> = {
  FLAGMAN_HOST: '127.0.0.1',
  FLAGMAN_PORT: String(E2E_PORT),
  FLAGMAN_DATA_DIR: dataDir,
  FLAGMAN_LOG_LEVEL: 'warn',
  // Stops at once: no load balancer waits on a test server.
  FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
  FLAGMAN_ADMIN_LOGIN: ADMIN.login,
  FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
  FLAGMAN_ADMIN_EMAIL: ADMIN.email,
  FLAGMAN_ADMIN_NAME: ADMIN.name,
}
// Playwright starts the server with the caller's environment plus `env`; the caller's other
// server settings are removed from it on the command line.
const unset = Object.keys(process.env)
  .filter((name) => /^FLAGMAN_\w+$/.test(name) && !(name in serverEnv))
  .map((name) => `-u ${name} `)
  .join('')

/**
 * Browser journeys against the built server serving the built console, on a fresh SQLite
 * database, in Debian's Chromium (no browser download).
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // A test left focused with `.only` must not pass a CI run by running alone.
  forbidOnly: !!process.env.CI,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `exec env ${unset}node ../bin/flagman server`,
    url: `${baseURL}/api/ping`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: serverEnv,
  },
})
