export const activityKeys = {
  list: (projectId: number) => ['project', projectId, 'activity'] as const,
}
