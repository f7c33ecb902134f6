import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
}

/** The server version as reported by `/api/info` and `flagman version`. */
export const VERSION: string = pkg.version
