import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // A test left focused with `.only` must not pass a CI run by running alone.
    allowOnly: !process.env.CI,
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
