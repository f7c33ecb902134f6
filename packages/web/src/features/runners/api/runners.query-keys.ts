/** Where runners live: the administrators' global list, or one project's own list. */
export type RunnerScope = { projectId: number | null }

export const runnerKeys = {
  list: ({ projectId }: RunnerScope) =>
    projectId === null
      ? (['runners', 'list'] as const)
      : (['project', projectId, 'runners', 'list'] as const),
}
