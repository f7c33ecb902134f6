import type { TFunction } from 'i18next'
import { z } from 'zod'

/**
 * A form field for an optional whole number from `min` to `max`, as typed text: empty is
 * allowed (the caller decides what it means), anything else must be an integer in range.
 */
export function wholeNumberText(t: TFunction<'projects'>, min: 0 | 1, max: number) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') return
      if (!/^[-+]?\d+$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: t('form.mustBeInteger') })
      } else if (Number(value) < min) {
        const message =
          min === 0 ? t('form.mustBeZeroOrGreater') : t('retention.mustBeOneOrGreater')
        ctx.addIssue({ code: 'custom', message })
      } else if (Number(value) > max) {
        ctx.addIssue({ code: 'custom', message: t('form.tooMany', { max }) })
      }
    })
}
