export const inventoryKeys = {
  list: (projectId: number) => ['project', projectId, 'inventories'] as const,
}
