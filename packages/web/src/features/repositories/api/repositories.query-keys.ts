export const repositoryKeys = {
  list: (projectId: number) => ['project', projectId, 'repositories'] as const,
}
