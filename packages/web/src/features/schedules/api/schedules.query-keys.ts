export const scheduleKeys = {
  all: (projectId: number) => ['project', projectId, 'schedules'] as const,
  list: (projectId: number) => ['project', projectId, 'schedules', 'list'] as const,
  preview: (projectId: number, cron: string, timezone: string) =>
    ['project', projectId, 'schedules', 'preview', cron, timezone] as const,
  validate: (projectId: number, cron: string) =>
    ['project', projectId, 'schedules', 'validate', cron] as const,
  runs: (projectId: number, scheduleId: number) =>
    ['project', projectId, 'schedules', 'runs', scheduleId] as const,
}
