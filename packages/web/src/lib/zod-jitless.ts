import { z } from 'zod'

/*
 * The server's Content-Security-Policy allows no `eval`. Without this setting zod compiles
 * object parsers with `new Function` (and probes whether it may, which the browser reports
 * as a policy violation). Imported first by the entry, before any schema is built.
 */
z.config({ jitless: true })
