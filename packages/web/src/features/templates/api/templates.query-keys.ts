export const templateKeys = {
  all: (projectId: number) => ['project', projectId, 'templates'] as const,
  list: (projectId: number, viewId: number | null) =>
    ['project', projectId, 'templates', 'list', viewId ?? 'all'] as const,
  item: (projectId: number, templateId: number) =>
    ['project', projectId, 'templates', 'item', templateId] as const,
  commitChecks: (projectId: number, templateId: number) =>
    ['project', projectId, 'templates', 'commit-checks', templateId] as const,
  workspaces: (projectId: number, templateId: number) =>
    ['project', projectId, 'templates', 'workspaces', templateId] as const,
  options: (projectId: number, kind: string) =>
    ['project', projectId, 'templates', 'options', kind] as const,
  apps: () => ['apps'] as const,
}
