/** Query keys of one workspace's HTTP backend: its aliases, state versions and lock. */
export const terraformKeys = {
  workspace: (projectId: number, inventoryId: number) =>
    ['project', projectId, 'terraform', inventoryId] as const,
  aliases: (projectId: number, inventoryId: number) =>
    ['project', projectId, 'terraform', inventoryId, 'aliases'] as const,
  states: (projectId: number, inventoryId: number) =>
    ['project', projectId, 'terraform', inventoryId, 'states'] as const,
  stateList: (projectId: number, inventoryId: number, limit: number) =>
    ['project', projectId, 'terraform', inventoryId, 'states', 'list', limit] as const,
  state: (projectId: number, inventoryId: number, stateId: number) =>
    ['project', projectId, 'terraform', inventoryId, 'states', 'item', stateId] as const,
  diff: (projectId: number, inventoryId: number, from: number, to: number) =>
    ['project', projectId, 'terraform', inventoryId, 'states', 'diff', from, to] as const,
  lock: (projectId: number, inventoryId: number) =>
    ['project', projectId, 'terraform', inventoryId, 'lock'] as const,
}
