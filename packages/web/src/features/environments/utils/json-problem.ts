import { parseJsonObject } from '@flagman/contract'
import type { TFunction } from 'i18next'

/** Why JSON text can not be used as variables, in words; null when it can. */
export function jsonProblem(t: TFunction<'environments'>, text: string): string | null {
  const parsed = parseJsonObject(text)
  if (parsed.ok) return null
  const reason = parsed.reason === 'must be a JSON object' ? t('editor.notObject') : parsed.reason
  return t('editor.invalidJson', { reason })
}
