import { defineConfig } from 'vitest/config'

/** One run over every package's tests; each package keeps its own settings. */
export default defineConfig({
  test: {
    // A test left focused with `.only` must not pass a CI run by running alone.
    allowOnly: !process.env.CI,
    projects: ['packages/contract', 'packages/executor', 'packages/server', 'packages/web'],
  },
})
