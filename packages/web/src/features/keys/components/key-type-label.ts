import type { TFunction } from 'i18next'

/** The words for a key type; an unknown type is shown as it is. */
export function keyTypeLabel(t: TFunction<'keys'>, type: string): string {
  switch (type) {
    case 'none':
      return t('types.none')
    case 'ssh':
      return t('types.ssh')
    case 'login_password':
      return t('types.login_password')
    default:
      return type
  }
}
