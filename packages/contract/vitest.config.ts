import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // A test left focused with `.only` must not pass a CI run by running alone.
    allowOnly: !process.env.CI,
  },
})
