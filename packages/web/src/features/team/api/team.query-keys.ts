export const teamKeys = {
  list: (projectId: number) => ['project', projectId, 'team'] as const,
  candidates: ['team', 'candidates'] as const,
}
