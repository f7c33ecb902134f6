export const environmentKeys = {
  list: (projectId: number) => ['project', projectId, 'environments'] as const,
  detail: (projectId: number, environmentId: number) =>
    ['project', projectId, 'environments', environmentId] as const,
}
