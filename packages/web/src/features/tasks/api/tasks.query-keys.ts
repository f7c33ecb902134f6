export const taskKeys = {
  all: (projectId: number) => ['project', projectId, 'tasks'] as const,
  list: (projectId: number) => ['project', projectId, 'tasks', 'list'] as const,
  detail: (projectId: number, taskId: number) =>
    ['project', projectId, 'tasks', 'detail', taskId] as const,
  output: (projectId: number, taskId: number) =>
    ['project', projectId, 'tasks', 'output', taskId] as const,
  stats: (projectId: number, templateId: number) =>
    ['project', projectId, 'tasks', 'stats', templateId] as const,
  active: () => ['tasks', 'active'] as const,
  originIntegrations: (projectId: number) =>
    ['project', projectId, 'tasks', 'origins', 'integrations'] as const,
  originSchedules: (projectId: number) =>
    ['project', projectId, 'tasks', 'origins', 'schedules'] as const,
}
