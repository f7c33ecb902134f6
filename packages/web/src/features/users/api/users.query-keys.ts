export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
  detail: (userId: number) => [...userKeys.all, 'detail', userId] as const,
}
