import { defineConfig } from 'vitest/config'

/** One run over every package's tests; each package keeps its own settings. */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'packages/executor', 'packages/server', 'packages/web'],
  },
})
