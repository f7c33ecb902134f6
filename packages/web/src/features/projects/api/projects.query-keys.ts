export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
  detail: (projectId: number) => ['project', projectId] as const,
  role: (projectId: number) => ['project', projectId, 'role'] as const,
}
