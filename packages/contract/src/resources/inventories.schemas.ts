import { z } from 'zod'
import { Id, InputId, PathId, RequiredName, typeError } from '../common/fields.js'
import { longText } from './refs.schemas.js'

export const INVENTORY_TYPES = [
  'static',
  'static-yaml',
  'file',
  'terraform-workspace',
  'tofu-workspace',
] as const
export const InventoryType = z.enum(INVENTORY_TYPES, { error: 'Not supported inventory type' })
export type InventoryType = z.infer<typeof InventoryType>

/** Types a person picks in the inventory form; workspaces belong to templates. */
export const HOST_INVENTORY_TYPES = ['static', 'static-yaml', 'file'] as const

export const Inventory = z.object({
  id: Id,
  name: z.string(),
  project_id: Id,
  type: z.string(),
  inventory: z.string(),
  ssh_key_id: Id.nullable(),
  become_key_id: Id.nullable(),
  repository_id: Id.nullable(),
  template_id: Id.nullable(),
})
export type Inventory = z.infer<typeof Inventory>

const optionalId = (label: string) => InputId(label).nullable().optional()

const inventoryFields = {
  name: RequiredName('Inventory name'),
  project_id: z.number({ error: typeError('project_id', 'a number') }).int(),
  type: InventoryType,
  inventory: z
    .string({ error: typeError('inventory', 'a string') })
    .trim()
    .pipe(longText('inventory'))
    .default(''),
  ssh_key_id: optionalId('ssh_key_id'),
  become_key_id: optionalId('become_key_id'),
  repository_id: optionalId('repository_id'),
  template_id: optionalId('template_id'),
}

export const CreateInventoryBody = z.object({
  ...inventoryFields,
})
export type CreateInventoryBody = z.input<typeof CreateInventoryBody>

export const UpdateInventoryBody = z.object({
  ...inventoryFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateInventoryBody = z.input<typeof UpdateInventoryBody>

export const ListInventoryQuery = z.object({
  sort: z.enum(['name'], { error: 'invalid sort column' }).optional(),
  order: z.string().max(8).optional(),
  app: z.string().max(64).optional(),
  template_id: PathId.optional(),
})

/**
 * A file inventory path must stay inside the repository: relative, without `..` parts.
 */
export function isSafeInventoryPath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.startsWith('~') || /^[a-zA-Z]:/.test(path)) {
    return false
  }
  return !path.split(/[\\/]/).some((part) => part === '..')
}
