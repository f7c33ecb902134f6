import { initI18n } from '../lib/i18n'

/** Tests see the English texts, as a user of the fallback language would. */
export function initTestI18n() {
  return initI18n('en')
}
