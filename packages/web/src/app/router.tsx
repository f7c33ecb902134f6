import type { ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { LoadingState } from '../components/loading-state'
import { paths } from '../config/paths'
import { RouteErrorBoundary } from './layouts/route-error-boundary'

// Every page is its own chunk, so the sign-in page loads none of the signed-in console.
// Importing a chunk twice loads it once: `preloadRoute` and `lazy` share these loaders.
const chunks = {
  login: () => import('./routes/auth/login'),
  verify: () => import('./routes/auth/verify'),
  appRoot: () => import('./layouts/app-root'),
  shell: () => import('./layouts/shell-layout'),
  projectLayout: () => import('./layouts/project-layout'),
  rootRedirect: () => import('./routes/root-redirect'),
  landing: () => import('./routes/project/landing'),
  history: () => import('./routes/project/history'),
  settings: () => import('./routes/project/settings'),
  team: () => import('./routes/project/team'),
  inventory: () => import('./routes/project/inventory'),
  environment: () => import('./routes/project/environment'),
  keys: () => import('./routes/project/keys'),
  repositories: () => import('./routes/project/repositories'),
  activity: () => import('./routes/project/activity'),
  install: () => import('./routes/project/install'),
  news: () => import('./routes/project/news'),
  schedule: () => import('./routes/project/schedule'),
  integrations: () => import('./routes/project/integrations'),
  integration: () => import('./routes/project/integration'),
  runners: () => import('./routes/project/runners'),
  newProject: () => import('./routes/project/new'),
  restore: () => import('./routes/project/restore'),
  templates: () => import('./routes/project/templates'),
  template: () => import('./routes/project/template'),
  apps: () => import('./routes/apps'),
  globalRunners: () => import('./routes/runners'),
  activeTasks: () => import('./routes/tasks'),
  users: () => import('./routes/users'),
  notFound: () => import('./routes/not-found'),
}

/**
 * The route's component, loaded by the router before it renders the route. Unlike a lazy
 * component inside Suspense, nested pages then appear together, in one commit, as soon as
 * their code is here, instead of one fallback after another.
 */
function lazyComponent<M>(chunk: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await chunk()) })
}

/** The page chunk of each project page name (`/project/{id}/{page}`). */
const PROJECT_PAGE_CHUNKS: Record<string, () => Promise<unknown>> = {
  history: chunks.history,
  settings: chunks.settings,
  team: chunks.team,
  inventory: chunks.inventory,
  environment: chunks.environment,
  keys: chunks.keys,
  repositories: chunks.repositories,
  activity: chunks.activity,
  install: chunks.install,
  news: chunks.news,
  schedule: chunks.schedule,
  integrations: chunks.integrations,
  runners: chunks.runners,
  templates: chunks.templates,
  views: chunks.templates,
}

/**
 * Starts loading, all at once, the chunks a signed-in address renders one inside another
 * (app root, shell, project layout, page), instead of each after its parent has rendered.
 */
export function preloadRoute(
  pathname: string,
  lastProjectPage: (projectId: number) => string | null,
): void {
  if (pathname.startsWith('/auth/')) return
  const load = (chunk: () => Promise<unknown>) => void chunk().catch(() => undefined)
  load(chunks.appRoot)
  const [first, id, page, ...rest] = pathname.split('/').filter(Boolean)
  if (first === undefined || first === 'project') load(chunks.shell)
  if (first !== 'project' || id === undefined || !/^\d+$/.test(id)) return
  load(chunks.projectLayout)
  if (page === undefined) {
    load(chunks.landing)
    load(PROJECT_PAGE_CHUNKS[lastProjectPage(Number(id)) ?? ''] ?? chunks.history)
    return
  }
  // templates/{id}… and views/{viewId}/templates/{id}… are template pages.
  const templatePage =
    page === 'templates' ? rest[0] : rest[1] === 'templates' ? rest[2] : undefined
  if (templatePage !== undefined) load(chunks.template)
  else if (page === 'integrations' && rest[0] !== undefined) load(chunks.integration)
  else {
    const chunk = PROJECT_PAGE_CHUNKS[page]
    if (chunk) load(chunk)
  }
}

const fullPageLoading = <LoadingState fullPage />
const historyRoute = lazyComponent(chunks.history, (m) => m.HistoryRoute)
const settingsRoute = lazyComponent(chunks.settings, (m) => m.SettingsRoute)
const teamRoute = lazyComponent(chunks.team, (m) => m.TeamRoute)
const inventoryRoute = lazyComponent(chunks.inventory, (m) => m.InventoryRoute)
const environmentRoute = lazyComponent(chunks.environment, (m) => m.EnvironmentRoute)
const keysRoute = lazyComponent(chunks.keys, (m) => m.KeysRoute)
const repositoriesRoute = lazyComponent(chunks.repositories, (m) => m.RepositoriesRoute)
const activityRoute = lazyComponent(chunks.activity, (m) => m.ActivityRoute)
const installRoute = lazyComponent(chunks.install, (m) => m.InstallRoute)
const scheduleRoute = lazyComponent(chunks.schedule, (m) => m.ScheduleRoute)
const integrationsRoute = lazyComponent(chunks.integrations, (m) => m.IntegrationsRoute)
const integrationRoute = lazyComponent(chunks.integration, (m) => m.IntegrationRoute)
const runnersRoute = lazyComponent(chunks.runners, (m) => m.RunnersRoute)
const templatesRoute = lazyComponent(chunks.templates, (m) => m.TemplatesRoute)
const templateRoute = lazyComponent(chunks.template, (m) => m.TemplateRoute)
const notFound = lazyComponent(chunks.notFound, (m) => m.NotFoundRoute)

export const routes: RouteObject[] = [
  {
    path: paths.login.path,
    lazy: lazyComponent(chunks.login, (m) => m.LoginRoute),
    hydrateFallbackElement: fullPageLoading,
    errorElement: <RouteErrorBoundary />,
  },
  {
    path: paths.verify.path,
    lazy: lazyComponent(chunks.verify, (m) => m.VerifyRoute),
    hydrateFallbackElement: fullPageLoading,
    errorElement: <RouteErrorBoundary />,
  },
  {
    path: paths.recovery.path,
    lazy: lazyComponent(chunks.verify, (m) => m.RecoveryRoute),
    hydrateFallbackElement: fullPageLoading,
    errorElement: <RouteErrorBoundary />,
  },
  {
    path: paths.root.path,
    lazy: lazyComponent(chunks.appRoot, (m) => m.AppRoot),
    hydrateFallbackElement: fullPageLoading,
    errorElement: <RouteErrorBoundary />,
    children: [
      { index: true, lazy: lazyComponent(chunks.rootRedirect, (m) => m.RootRedirect) },
      { path: paths.users.path, lazy: lazyComponent(chunks.users, (m) => m.UsersRoute) },
      { path: paths.apps.path, lazy: lazyComponent(chunks.apps, (m) => m.AppsRoute) },
      {
        path: paths.runners.path,
        lazy: lazyComponent(chunks.globalRunners, (m) => m.GlobalRunnersRoute),
      },
      {
        path: paths.activeTasks.path,
        lazy: lazyComponent(chunks.activeTasks, (m) => m.ActiveTasksRoute),
      },
      {
        path: 'project',
        lazy: lazyComponent(chunks.shell, (m) => m.ShellLayout),
        children: [
          { index: true, lazy: lazyComponent(chunks.rootRedirect, (m) => m.RootRedirect) },
          { path: 'new', lazy: lazyComponent(chunks.newProject, (m) => m.NewProjectRoute) },
          {
            path: 'premium',
            lazy: lazyComponent(
              chunks.newProject,
              ({ NewProjectRoute }) =>
                function PremiumProjectRoute() {
                  return <NewProjectRoute premium />
                },
            ),
          },
          {
            path: 'restore',
            lazy: lazyComponent(chunks.restore, (m) => m.RestoreProjectRoute),
          },
          {
            path: ':projectId',
            lazy: lazyComponent(chunks.projectLayout, (m) => m.ProjectLayout),
            children: [
              { index: true, lazy: lazyComponent(chunks.landing, (m) => m.ProjectLanding) },
              { path: paths.projectHistory.path, lazy: historyRoute },
              { path: paths.projectSettings.path, lazy: settingsRoute },
              { path: paths.projectTeam.path, lazy: teamRoute },
              { path: paths.projectInventory.path, lazy: inventoryRoute },
              { path: paths.projectEnvironment.path, lazy: environmentRoute },
              { path: paths.projectKeys.path, lazy: keysRoute },
              { path: paths.projectRepositories.path, lazy: repositoriesRoute },
              { path: paths.projectActivity.path, lazy: activityRoute },
              { path: paths.projectInstall.path, lazy: installRoute },
              { path: `${paths.projectInstall.path}/:tab`, lazy: installRoute },
              {
                path: paths.projectNews.path,
                lazy: lazyComponent(chunks.news, (m) => m.NewsRoute),
              },
              { path: paths.projectSchedule.path, lazy: scheduleRoute },
              { path: paths.projectIntegrations.path, lazy: integrationsRoute },
              { path: paths.projectIntegration.path, lazy: integrationRoute },
              { path: paths.projectRunners.path, lazy: runnersRoute },
              { path: paths.projectTemplates.path, lazy: templatesRoute },
              { path: 'views/:viewId/templates', lazy: templatesRoute },
              { path: 'templates/:templateId', lazy: templateRoute },
              { path: 'templates/:templateId/:tab', lazy: templateRoute },
              { path: 'views/:viewId/templates/:templateId', lazy: templateRoute },
              {
                path: 'views/:viewId/templates/:templateId/:tab',
                lazy: templateRoute,
              },
              { path: '*', lazy: notFound },
            ],
          },
        ],
      },
      { path: '*', lazy: notFound },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}
