export const taskKeys = {
  all: (projectId: number) => ['project', projectId, 'tasks'] as const,
  list: (projectId: number) => ['project', projectId, 'tasks', 'list'] as const,
  detail: (projectId: number, taskId: number) =>
    ['project', projectId, 'tasks', 'detail', taskId] as const,
  output: (projectId: number, taskId: number) =>
    ['project', projectId, 'tasks', 'output', taskId] as const,
  outputCount: (projectId: number, taskId: number) =>
    ['project', projectId, 'tasks', 'output', taskId, 'count'] as const,
  /** A page is its first line and length: a growing last page is a new page. */
  outputPage: (projectId: number, taskId: number, offset: number, limit: number) =>
    ['project', projectId, 'tasks', 'output', taskId, 'page', offset, limit] as const,
  stats: (projectId: number, templateId: number) =>
    ['project', projectId, 'tasks', 'stats', templateId] as const,
  active: () => ['tasks', 'active'] as const,
  originIntegrations: (projectId: number) =>
    ['project', projectId, 'tasks', 'origins', 'integrations'] as const,
  originSchedules: (projectId: number) =>
    ['project', projectId, 'tasks', 'origins', 'schedules'] as const,
}
