import { resolve } from 'node:path'
import { parseDbUrl, type DbConfig } from '@flagman/db'
import { z } from 'zod'
import { isTimeZone } from './lib/cron.js'
import { loadAlertConfig, type AlertConfig } from './modules/alerts/alert.config.js'
import { loadLdapConfig, type LdapConfig } from './modules/auth/ldap.config.js'
import { loadOidcProviders, type OidcProviderConfig } from './modules/auth/oidc-config.js'

/** Server settings, read from `FLAGMAN_*` environment variables. Every one has a safe default. */
export interface Config {
  host: string
  port: number
  dataDir: string
  db: DbConfig
  /** Public URL of the console, used in links; empty means http://localhost:<port>. */
  webHost: string
  /**
   * Behind a reverse proxy: believe its X-Forwarded-For, -Proto and -Host headers (client
   * address for sign-in throttling, HTTPS for the Secure cookie flag, host for the Origin check).
   */
  trustProxy: boolean
  nonAdminCanCreateProject: boolean
  passwordLoginDisabled: boolean
  maxParallelTasks: number
  /** Milliseconds running tasks get to stop when the server shuts down. */
  taskShutdownGraceMs: number
  /**
   * Milliseconds a stopping instance serves on, not ready, while its running tasks finish
   * and a load balancer moves away (ends sooner once both are done); 0: none.
   */
  shutdownDrainMs: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Folder holding the built console; empty disables serving it. */
  webDir: string
  /** Failed sign-ins from one address for one account before that pair is refused a while. */
  loginMaxAttempts: number
  /** Failed sign-ins from one address, all accounts together, before it is refused a while. */
  loginMaxAttemptsPerAddress: number
  loginLockSeconds: number
  /** Two-factor sign-in with an authenticator app (TOTP) may be turned on by users. */
  totpEnabled: boolean
  /** A user who lost their authenticator may sign in once with their recovery code. */
  totpAllowRecovery: boolean
  /** Seconds between pings on the live socket; a client that misses one is disconnected. */
  wsPingSeconds: number
  /** IANA time zone of schedules that do not name their own (`UTC` by default). */
  scheduleTimezone: string
  /** Base64 AES-256 key for secrets at rest; empty: generated once into the data folder. */
  accessKeyEncryption: string
  /** First admin, created on start when there are no users yet. */
  adminLogin: string
  adminPassword: string
  adminEmail: string
  adminName: string
  /** Sign-in against an LDAP directory (`FLAGMAN_LDAP_*`); null when off. */
  ldap: LdapConfig | null
  /** OpenID Connect providers from the JSON file `FLAGMAN_OIDC_CONFIG` names, in button order. */
  oidcProviders: OidcProviderConfig[]
  /** Tasks without a runner tag may run on this machine (when no runner takes them). */
  localExecution: boolean
  /** Seconds without a heartbeat after which a runner counts as lost. */
  runnerTimeoutSeconds: number
  /** Seconds within which another instance takes over the tasks of one that died. */
  instanceTimeoutSeconds: number
  /** Bearer token that may read `/api/metrics` besides administrators; empty: none. */
  metricsToken: string
  /** Lets runners register themselves with this token; empty: only created in the console. */
  runnerRegistrationToken: string
  /** Shortest password accepted wherever a password is set (API, console, CLI). */
  passwordMinLength: number
  /** Room for reusable answers of heavy read routes, in bytes; 0 turns their reuse off. */
  answerCacheBytes: number
  /** Alert channels (`FLAGMAN_ALERT_*`). */
  alerts: AlertConfig
  /** Days of task history kept in projects that set none; 0: for ever. */
  taskRetentionDays: number
  /** Days the activity log (events) is kept; 0: for ever. */
  eventRetentionDays: number
  /** Seconds between two sweeps of the retention job. */
  retentionIntervalSeconds: number
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const EnvSchema = z.object({
  FLAGMAN_HOST: z.string().default('127.0.0.1'),
  FLAGMAN_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  FLAGMAN_DATA_DIR: z.string().default('data'),
  FLAGMAN_DB: z.string().optional(),
  FLAGMAN_WEB_HOST: z.string().default(''),
  FLAGMAN_TRUST_PROXY: bool.default(false),
  FLAGMAN_NON_ADMIN_CAN_CREATE_PROJECT: bool.default(false),
  FLAGMAN_PASSWORD_LOGIN_DISABLE: bool.default(false),
  FLAGMAN_MAX_PARALLEL_TASKS: z.coerce.number().int().min(0).default(10),
  FLAGMAN_TASK_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  FLAGMAN_SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(86_400).default(10),
  FLAGMAN_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  FLAGMAN_WEB_DIR: z.string().optional(),
  FLAGMAN_LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  FLAGMAN_LOGIN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
  FLAGMAN_LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(60),
  FLAGMAN_TOTP_ENABLED: bool.default(false),
  FLAGMAN_TOTP_ALLOW_RECOVERY: bool.default(false),
  FLAGMAN_WS_PING_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  FLAGMAN_SCHEDULE_TIMEZONE: z
    .string()
    .trim()
    .transform((v) => v || 'UTC')
    .refine(isTimeZone, 'unknown time zone (expected an IANA name such as Europe/Berlin)')
    .default('UTC'),
  FLAGMAN_ACCESS_KEY_ENCRYPTION: z.string().default(''),
  FLAGMAN_ADMIN_LOGIN: z.string().default('admin'),
  FLAGMAN_ADMIN_PASSWORD: z.string().default(''),
  FLAGMAN_ADMIN_EMAIL: z.string().default('admin@localhost'),
  FLAGMAN_ADMIN_NAME: z.string().default('Administrator'),
  FLAGMAN_OIDC_CONFIG: z.string().default(''),
  FLAGMAN_LOCAL_EXECUTION: bool.default(true),
  FLAGMAN_RUNNER_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(86_400).default(60),
  FLAGMAN_INSTANCE_TIMEOUT_SECONDS: z.coerce.number().int().min(3).max(3_600).default(30),
  FLAGMAN_METRICS_TOKEN: z.string().default(''),
  FLAGMAN_RUNNER_REGISTRATION_TOKEN: z.string().default(''),
  FLAGMAN_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(1).max(128).default(8),
  FLAGMAN_ANSWER_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  FLAGMAN_TASK_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  FLAGMAN_EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  FLAGMAN_RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
})

/**
 * Reads the configuration. `defaultWebDir` is where the built console lives in this
 * checkout; `FLAGMAN_WEB_DIR` overrides it.
 */
export function loadConfig(env: NodeJS.ProcessEnv, defaultWebDir: string): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`Invalid setting ${issue?.path.join('.')}: ${issue?.message}`)
  }
  const e = parsed.data
  let oidcProviders: OidcProviderConfig[]
  try {
    oidcProviders = loadOidcProviders(e.FLAGMAN_OIDC_CONFIG)
  } catch (error) {
    throw new Error(`Invalid setting FLAGMAN_OIDC_CONFIG: ${(error as Error).message}`, {
      cause: error,
    })
  }
  // Read from `env` itself: the LDAP settings are checked together, with their own messages.
  const ldap = loadLdapConfig(env)
  const alerts = loadAlertConfig(env)
  const dataDir = resolve(e.FLAGMAN_DATA_DIR)
  return {
    host: e.FLAGMAN_HOST,
    port: e.FLAGMAN_PORT,
    dataDir,
    db: parseDbUrl(e.FLAGMAN_DB, resolve(dataDir, 'flagman.sqlite')),
    webHost: e.FLAGMAN_WEB_HOST.replace(/\/+$/, ''),
    trustProxy: e.FLAGMAN_TRUST_PROXY,
    nonAdminCanCreateProject: e.FLAGMAN_NON_ADMIN_CAN_CREATE_PROJECT,
    passwordLoginDisabled: e.FLAGMAN_PASSWORD_LOGIN_DISABLE,
    maxParallelTasks: e.FLAGMAN_MAX_PARALLEL_TASKS,
    taskShutdownGraceMs: Math.round(e.FLAGMAN_TASK_SHUTDOWN_GRACE_SECONDS * 1000),
    shutdownDrainMs: Math.round(e.FLAGMAN_SHUTDOWN_DRAIN_SECONDS * 1000),
    logLevel: e.FLAGMAN_LOG_LEVEL,
    webDir: e.FLAGMAN_WEB_DIR ?? defaultWebDir,
    loginMaxAttempts: e.FLAGMAN_LOGIN_MAX_ATTEMPTS,
    // Default: ten accounts' worth of failures, so a few people behind one NAT who
    // mistype do not lock each other out, while one address can not guess on without end.
    loginMaxAttemptsPerAddress:
      e.FLAGMAN_LOGIN_MAX_ATTEMPTS_PER_ADDRESS ?? e.FLAGMAN_LOGIN_MAX_ATTEMPTS * 10,
    loginLockSeconds: e.FLAGMAN_LOGIN_LOCK_SECONDS,
    totpEnabled: e.FLAGMAN_TOTP_ENABLED,
    totpAllowRecovery: e.FLAGMAN_TOTP_ALLOW_RECOVERY,
    wsPingSeconds: e.FLAGMAN_WS_PING_SECONDS,
    scheduleTimezone: e.FLAGMAN_SCHEDULE_TIMEZONE,
    accessKeyEncryption: e.FLAGMAN_ACCESS_KEY_ENCRYPTION,
    adminLogin: e.FLAGMAN_ADMIN_LOGIN,
    adminPassword: e.FLAGMAN_ADMIN_PASSWORD,
    adminEmail: e.FLAGMAN_ADMIN_EMAIL,
    adminName: e.FLAGMAN_ADMIN_NAME,
    ldap,
    oidcProviders,
    localExecution: e.FLAGMAN_LOCAL_EXECUTION,
    runnerTimeoutSeconds: e.FLAGMAN_RUNNER_TIMEOUT_SECONDS,
    instanceTimeoutSeconds: e.FLAGMAN_INSTANCE_TIMEOUT_SECONDS,
    metricsToken: e.FLAGMAN_METRICS_TOKEN,
    runnerRegistrationToken: e.FLAGMAN_RUNNER_REGISTRATION_TOKEN,
    passwordMinLength: e.FLAGMAN_PASSWORD_MIN_LENGTH,
    answerCacheBytes: e.FLAGMAN_ANSWER_CACHE_MB * 1024 * 1024,
    alerts,
    taskRetentionDays: e.FLAGMAN_TASK_RETENTION_DAYS,
    eventRetentionDays: e.FLAGMAN_EVENT_RETENTION_DAYS,
    retentionIntervalSeconds: e.FLAGMAN_RETENTION_INTERVAL_SECONDS,
  }
}
