import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // A test left focused with `.only` must not pass a CI run by running alone.
    allowOnly: !process.env.CI,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // API test files mostly wait on the server process and the databases they start, so
    // more of them run at once than there are cores (vitest's default is cores - 1, which is
    // one file at a time on a two-core machine). A project with its own worker count needs
    // its own group; it runs after the contract and console tests.
    maxWorkers: 3,
    sequence: { groupOrder: 1 },
  },
})
