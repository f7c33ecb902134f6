import { useTranslation } from 'react-i18next'
import { labelledStatus } from '../task-status'

/**
 * A task status as words of the shown language, for lists that show it as text. Rejected has
 * no label (as on the chip); an unknown status shows itself.
 */
export function TaskStatusLabel({ status }: { status: string }) {
  const { t } = useTranslation('tasks')
  const labelled = labelledStatus(status)
  if (status === 'rejected') return null
  return <>{labelled ? t(`status.${labelled}`) : status}</>
}
