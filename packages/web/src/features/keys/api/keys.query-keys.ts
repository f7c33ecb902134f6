export const keyKeys = {
  list: (projectId: number) => ['project', projectId, 'keys'] as const,
}
