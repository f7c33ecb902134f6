import { buildPath, OIDC_LOGIN_PATH } from '@flagman/contract'

/** Route patterns (for the router) and href builders (for links), kept in one place. */
export const paths = {
  root: { path: '/', href: () => '/' },
  login: { path: '/auth/login', href: () => '/auth/login' },
  verify: { path: '/auth/verify', href: () => '/auth/verify' },
  recovery: { path: '/auth/recovery', href: () => '/auth/recovery' },
  users: { path: '/users', href: () => '/users' },
  apps: { path: '/apps', href: () => '/apps' },
  runners: { path: '/runners', href: () => '/runners' },
  activeTasks: { path: '/tasks', href: () => '/tasks' },
  newProject: { path: '/project/new', href: () => '/project/new' },
  newPremiumProject: { path: '/project/premium', href: () => '/project/premium' },
  restoreProject: { path: '/project/restore', href: () => '/project/restore' },
  project: {
    path: '/project/:projectId',
    href: (projectId: number) => `/project/${projectId}`,
  },
  projectHistory: {
    path: 'history',
    href: (projectId: number) => `/project/${projectId}/history`,
  },
  projectSettings: {
    path: 'settings',
    href: (projectId: number) => `/project/${projectId}/settings`,
  },
  projectTeam: {
    path: 'team',
    href: (projectId: number) => `/project/${projectId}/team`,
  },
  projectInventory: {
    path: 'inventory',
    href: (projectId: number) => `/project/${projectId}/inventory`,
  },
  projectEnvironment: {
    path: 'environment',
    href: (projectId: number) => `/project/${projectId}/environment`,
  },
  projectKeys: {
    path: 'keys',
    href: (projectId: number) => `/project/${projectId}/keys`,
  },
  projectRepositories: {
    path: 'repositories',
    href: (projectId: number) => `/project/${projectId}/repositories`,
  },
  projectTemplates: {
    path: 'templates',
    href: (projectId: number, viewId: number | null = null) =>
      viewId === null
        ? `/project/${projectId}/templates`
        : `/project/${projectId}/views/${viewId}/templates`,
  },
  projectTemplate: {
    path: 'templates/:templateId',
    href: (projectId: number, templateId: number, viewId: number | null = null) =>
      `${viewId === null ? `/project/${projectId}` : `/project/${projectId}/views/${viewId}`}/templates/${templateId}`,
  },
  projectSchedule: {
    path: 'schedule',
    href: (projectId: number) => `/project/${projectId}/schedule`,
  },
  projectIntegrations: {
    path: 'integrations',
    href: (projectId: number) => `/project/${projectId}/integrations`,
  },
  projectIntegration: {
    path: 'integrations/:integrationId',
    href: (projectId: number, integrationId: number) =>
      `/project/${projectId}/integrations/${integrationId}`,
  },
  projectRunners: {
    path: 'runners',
    href: (projectId: number) => `/project/${projectId}/runners`,
  },
  projectActivity: {
    path: 'activity',
    href: (projectId: number) => `/project/${projectId}/activity`,
  },
  projectInstall: {
    path: 'install',
    href: (projectId: number, tab: 'images' | 'configs' | null = null) =>
      tab === null ? `/project/${projectId}/install` : `/project/${projectId}/install/${tab}`,
  },
  projectNews: {
    path: 'news',
    href: (projectId: number) => `/project/${projectId}/news`,
  },
} as const

/** The pages of a project whose last visit is remembered. */
export const PROJECT_PAGES = [
  'history',
  'templates',
  'schedule',
  'settings',
  'team',
  'inventory',
  'environment',
  'keys',
  'repositories',
  'integrations',
  'runners',
  'activity',
] as const
export type ProjectPage = (typeof PROJECT_PAGES)[number]

export function isProjectPage(value: string | null | undefined): value is ProjectPage {
  return PROJECT_PAGES.some((page) => page === value)
}

/**
 * Single sign-on starts with a full browser navigation (the server answers with a redirect to
 * the identity provider), so it is a link and not an API call.
 */
export function oidcLoginHref(providerId: string, redirect?: string): string {
  const path = buildPath(OIDC_LOGIN_PATH, { provider_id: providerId })
  return redirect ? `${path}?${new URLSearchParams({ redirect }).toString()}` : path
}

/** Query parameter that opens the new-project dialog on any page. */
export const NEW_PROJECT_PARAM = 'new_project'
/** On the template list, opens the new template dialog for this app (or the first active one). */
export const NEW_TEMPLATE_PARAM = 'new_template'
