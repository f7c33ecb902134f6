import { lazy, type ReactNode, Suspense } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { LoadingState } from '../components/loading-state'
import { paths } from '../config/paths'
import { RouteErrorBoundary } from './layouts/route-error-boundary'

// Every page is its own chunk, so the sign-in page loads none of the signed-in console.
// Importing a chunk twice loads it once: `preloadRoute` and `lazy` share these loaders.
const chunks = {
  login: () => import('./routes/auth/login'),
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
  newProject: () => import('./routes/project/new'),
  restore: () => import('./routes/project/restore'),
  templates: () => import('./routes/project/templates'),
  template: () => import('./routes/project/template'),
  apps: () => import('./routes/apps'),
  activeTasks: () => import('./routes/tasks'),
  users: () => import('./routes/users'),
  notFound: () => import('./routes/not-found'),
}

const LoginRoute = lazy(() => chunks.login().then((m) => ({ default: m.LoginRoute })))
const AppRoot = lazy(() => chunks.appRoot().then((m) => ({ default: m.AppRoot })))
const ShellLayout = lazy(() => chunks.shell().then((m) => ({ default: m.ShellLayout })))
const ProjectLayout = lazy(() => chunks.projectLayout().then((m) => ({ default: m.ProjectLayout })))
const RootRedirect = lazy(() => chunks.rootRedirect().then((m) => ({ default: m.RootRedirect })))
const ProjectLanding = lazy(() => chunks.landing().then((m) => ({ default: m.ProjectLanding })))
const HistoryRoute = lazy(() => chunks.history().then((m) => ({ default: m.HistoryRoute })))
const SettingsRoute = lazy(() => chunks.settings().then((m) => ({ default: m.SettingsRoute })))
const TeamRoute = lazy(() => chunks.team().then((m) => ({ default: m.TeamRoute })))
const InventoryRoute = lazy(() => chunks.inventory().then((m) => ({ default: m.InventoryRoute })))
const EnvironmentRoute = lazy(() =>
  chunks.environment().then((m) => ({ default: m.EnvironmentRoute })),
)
const KeysRoute = lazy(() => chunks.keys().then((m) => ({ default: m.KeysRoute })))
const RepositoriesRoute = lazy(() =>
  chunks.repositories().then((m) => ({ default: m.RepositoriesRoute })),
)
const ActivityRoute = lazy(() => chunks.activity().then((m) => ({ default: m.ActivityRoute })))
const NewProjectRoute = lazy(() =>
  chunks.newProject().then((m) => ({ default: m.NewProjectRoute })),
)
const RestoreProjectRoute = lazy(() =>
  chunks.restore().then((m) => ({ default: m.RestoreProjectRoute })),
)
const TemplatesRoute = lazy(() => chunks.templates().then((m) => ({ default: m.TemplatesRoute })))
const TemplateRoute = lazy(() => chunks.template().then((m) => ({ default: m.TemplateRoute })))
const AppsRoute = lazy(() => chunks.apps().then((m) => ({ default: m.AppsRoute })))
const ActiveTasksRoute = lazy(() =>
  chunks.activeTasks().then((m) => ({ default: m.ActiveTasksRoute })),
)
const UsersRoute = lazy(() => chunks.users().then((m) => ({ default: m.UsersRoute })))
const NotFoundRoute = lazy(() => chunks.notFound().then((m) => ({ default: m.NotFoundRoute })))

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
  else {
    const chunk = PROJECT_PAGE_CHUNKS[page]
    if (chunk) load(chunk)
  }
}

function page(element: ReactNode, fullPage = false) {
  return <Suspense fallback={<LoadingState fullPage={fullPage} />}>{element}</Suspense>
}

export const routes: RouteObject[] = [
  {
    path: paths.login.path,
    element: page(<LoginRoute />, true),
    errorElement: <RouteErrorBoundary />,
  },
  {
    path: paths.root.path,
    element: page(<AppRoot />, true),
    errorElement: <RouteErrorBoundary />,
    children: [
      { index: true, element: page(<RootRedirect />, true) },
      { path: paths.users.path, element: page(<UsersRoute />, true) },
      { path: paths.apps.path, element: page(<AppsRoute />, true) },
      { path: paths.activeTasks.path, element: page(<ActiveTasksRoute />, true) },
      {
        path: 'project',
        element: page(<ShellLayout />, true),
        children: [
          { index: true, element: page(<RootRedirect />) },
          { path: 'new', element: page(<NewProjectRoute />) },
          { path: 'premium', element: page(<NewProjectRoute premium />) },
          { path: 'restore', element: page(<RestoreProjectRoute />) },
          {
            path: ':projectId',
            element: page(<ProjectLayout />),
            children: [
              { index: true, element: page(<ProjectLanding />) },
              { path: paths.projectHistory.path, element: page(<HistoryRoute />) },
              { path: paths.projectSettings.path, element: page(<SettingsRoute />) },
              { path: paths.projectTeam.path, element: page(<TeamRoute />) },
              { path: paths.projectInventory.path, element: page(<InventoryRoute />) },
              { path: paths.projectEnvironment.path, element: page(<EnvironmentRoute />) },
              { path: paths.projectKeys.path, element: page(<KeysRoute />) },
              { path: paths.projectRepositories.path, element: page(<RepositoriesRoute />) },
              { path: paths.projectActivity.path, element: page(<ActivityRoute />) },
              { path: paths.projectTemplates.path, element: page(<TemplatesRoute />) },
              { path: 'views/:viewId/templates', element: page(<TemplatesRoute />) },
              { path: 'templates/:templateId', element: page(<TemplateRoute />) },
              { path: 'templates/:templateId/:tab', element: page(<TemplateRoute />) },
              { path: 'views/:viewId/templates/:templateId', element: page(<TemplateRoute />) },
              {
                path: 'views/:viewId/templates/:templateId/:tab',
                element: page(<TemplateRoute />),
              },
              { path: '*', element: page(<NotFoundRoute />) },
            ],
          },
        ],
      },
      { path: '*', element: page(<NotFoundRoute />, true) },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}
