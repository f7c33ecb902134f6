export const integrationKeys = {
  all: (projectId: number) => ['project', projectId, 'integrations'] as const,
  list: (projectId: number) => ['project', projectId, 'integrations', 'list'] as const,
  item: (projectId: number, integrationId: number) =>
    ['project', projectId, 'integrations', 'item', integrationId] as const,
  projectAliases: (projectId: number) =>
    ['project', projectId, 'integrations', 'project-aliases'] as const,
  aliases: (projectId: number, integrationId: number) =>
    ['project', projectId, 'integrations', 'aliases', integrationId] as const,
  matchers: (projectId: number, integrationId: number) =>
    ['project', projectId, 'integrations', 'matchers', integrationId] as const,
  values: (projectId: number, integrationId: number) =>
    ['project', projectId, 'integrations', 'values', integrationId] as const,
  deliveries: (projectId: number, integrationId: number) =>
    ['project', projectId, 'integrations', 'deliveries', integrationId] as const,
}
