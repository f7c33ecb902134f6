import type { TFunction } from 'i18next'

/** The words for an inventory type; other types (template workspaces) are shown as they are. */
export function inventoryTypeLabel(t: TFunction<'inventories'>, type: string): string {
  switch (type) {
    case 'static':
      return t('types.static')
    case 'static-yaml':
      return t('types.static-yaml')
    case 'file':
      return t('types.file')
    default:
      return type
  }
}
