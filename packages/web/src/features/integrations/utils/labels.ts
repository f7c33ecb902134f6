import { DELIVERY_RESULTS, type DeliveryResult } from '@flagman/contract'
import type { TFunction } from 'i18next'

/** The auth method's name; the empty method is "None". */
export function authMethodLabel(t: TFunction<'integrations'>, method: string): string {
  switch (method) {
    case '':
      return t('authMethods.none')
    case 'github':
      return t('authMethods.github')
    case 'token':
      return t('authMethods.token')
    case 'hmac':
      return t('authMethods.hmac')
    default:
      return method
  }
}

export function sourceLabel(t: TFunction<'integrations'>, source: string): string {
  switch (source) {
    case 'body':
      return t('sources.body')
    case 'header':
      return t('sources.header')
    default:
      return source
  }
}

export function bodyDataTypeLabel(t: TFunction<'integrations'>, type: string): string {
  switch (type) {
    case 'json':
      return t('bodyDataTypes.json')
    case 'string':
      return t('bodyDataTypes.string')
    default:
      return type
  }
}

export function matchMethodLabel(t: TFunction<'integrations'>, method: string): string {
  switch (method) {
    case 'equals':
      return t('matchMethods.equals')
    case 'unequals':
      return t('matchMethods.unequals')
    case 'contains':
      return t('matchMethods.contains')
    default:
      return method
  }
}

function isDeliveryResult(value: string): value is DeliveryResult {
  return DELIVERY_RESULTS.some((result) => result === value)
}

export function deliveryResultLabel(t: TFunction<'integrations'>, result: string): string {
  return isDeliveryResult(result) ? t(`deliveries.results.${result}`) : result
}
