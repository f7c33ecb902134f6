import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeAll } from 'vitest'
import { initTestI18n } from './i18n'

// Lazy pages load their chunk first; on a busy two-core machine that takes well over the
// default one second, so waits for something to appear get more time.
configure({ asyncUtilTimeout: 10_000 })

beforeAll(async () => {
  await initTestI18n()
})

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
