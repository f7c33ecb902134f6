import fastifyCookie from '@fastify/cookie'
import type { Db } from '@flagman/db'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import { SecretBox } from './lib/secret-box.js'
import { AnswerCache } from './platform/answer-cache.js'
import { Drain } from './platform/drain.js'
import { registerRequestLog, requestId } from './platform/request-log.js'
import { alertsModule } from './modules/alerts/index.js'
import { apiDocsRoutes } from './modules/api-docs/index.js'
import { instancesModule } from './modules/instances/index.js'
import { appsRoutes } from './modules/apps/index.js'
import { backupRoutes } from './modules/backup/index.js'
import { authRoutes } from './modules/auth/auth.routes.js'
import { environmentsRoutes } from './modules/environments/index.js'
import { eventsRoutes } from './modules/events/index.js'
import { integrationsRoutes, receiverRoutes } from './modules/integrations/index.js'
import { inventoriesRoutes } from './modules/inventories/index.js'
import { keysRoutes } from './modules/keys/index.js'
import { logSearchModule } from './modules/log-search/index.js'
import { metricsModule } from './modules/metrics/index.js'
import { projectsRoutes } from './modules/projects/index.js'
import { repositoriesRoutes } from './modules/repositories/index.js'
import { retentionModule } from './modules/retention/index.js'
import { runnersModule } from './modules/runners/index.js'
import { schedulesModule, type ClockTimers } from './modules/schedules/index.js'
import { subscriptionModule } from './modules/subscription/index.js'
import { systemRoutes } from './modules/system/index.js'
import { tasksModule } from './modules/tasks/index.js'
import { teamRoutes } from './modules/team/index.js'
import { templatesRoutes } from './modules/templates/index.js'
import { terraformBackendRoutes } from './modules/terraform/index.js'
import { usersRoutes } from './modules/users/index.js'
import { viewsRoutes } from './modules/views/index.js'
import { handleFrameworkError, registerErrorHandler } from './platform/error-handler.js'
import { registerSecurityHeaders, SECURITY_HEADERS } from './platform/headers.js'
import { registerJsonBody } from './platform/json-body.js'
import { registerRealtime } from './platform/realtime.js'
import { registerSecurity } from './platform/security.js'
import { registerStatic } from './platform/static.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    config: Config
    secrets: SecretBox
    /** Serialised answers of heavy read routes, kept until a write could change them. */
    answers: AnswerCache
    /** The graceful stop's first part: not ready, serving on while work finishes. */
    drain: Drain
  }
}

/** What a test may hand in instead of the real thing; the server itself passes nothing. */
export interface AppOptions {
  /** The schedule clock's time source (the system's by default). */
  scheduleTimers?: ClockTimers
  /** The host name this instance records (the machine's by default). */
  instanceHost?: string
}

/**
 * Builds the HTTP application without listening. The order below is the architecture:
 * platform first (cookies, errors, browser protections), then each domain module, then the
 * console and the not-found handler.
 */
export async function buildApp(
  config: Config,
  db: Db,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // Such errors are answered before any hook runs; they get the security headers here.
    frameworkErrors: (error, request, reply) => {
      reply.headers(SECURITY_HEADERS)
      handleFrameworkError(error, request, reply)
    },
    bodyLimit: 10 * 1024 * 1024,
    genReqId: requestId,
  })
  app.decorate('db', db)
  app.decorate('config', config)
  app.decorate('answers', new AnswerCache(db.writes, config.answerCacheBytes))
  app.decorate(
    'secrets',
    SecretBox.load(config.accessKeyEncryption, config.dataDir, (file) =>
      app.log.warn(
        `Generated the key that encrypts stored secrets in ${file}. Back it up with the ` +
          'database, or set FLAGMAN_ACCESS_KEY_ENCRYPTION; without it stored secrets are lost.',
      ),
    ),
  )

  registerRequestLog(app)
  app.decorate('drain', new Drain(app))
  registerJsonBody(app)
  registerSecurityHeaders(app)

  await app.register(fastifyCookie)
  registerErrorHandler(app)
  registerSecurity(app)

  // First: the modules below share their state with the other instances through it.
  instancesModule(app, options.instanceHost)
  metricsModule(app)
  systemRoutes(app)
  authRoutes(app)
  usersRoutes(app)
  projectsRoutes(app)
  teamRoutes(app)
  eventsRoutes(app)
  keysRoutes(app)
  repositoriesRoutes(app)
  inventoriesRoutes(app)
  await terraformBackendRoutes(app)
  environmentsRoutes(app)
  viewsRoutes(app)
  appsRoutes(app)
  templatesRoutes(app)
  const tasks = tasksModule(app)
  logSearchModule(app)
  alertsModule(app, tasks)
  schedulesModule(app, tasks, options.scheduleTimers)
  retentionModule(app)
  integrationsRoutes(app)
  await receiverRoutes(app)
  runnersModule(app)
  await registerRealtime(app, tasks.events)
  backupRoutes(app)
  subscriptionModule(app)
  await apiDocsRoutes(app)

  await registerStatic(app, config.webDir)
  return app
}
