import type { IntegrationExtractValue } from '@flagman/contract'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDeleteExtractValue, useExtractValues } from '../api/values'
import { bodyDataTypeLabel, sourceLabel } from '../utils/labels'
import { PartsSection } from './parts-section'
import { ValueDialog } from './value-dialog'

export interface ValuesSectionProps {
  projectId: number
  integrationId: number
  text?: ReactNode
  canManage: boolean
}

export function ValuesSection({ projectId, integrationId, text, canManage }: ValuesSectionProps) {
  const { t } = useTranslation('integrations')
  return (
    <PartsSection<IntegrationExtractValue>
      kind="values"
      text={text}
      canManage={canManage}
      items={useExtractValues(projectId, integrationId)}
      remove={useDeleteExtractValue(projectId, integrationId)}
      columns={[
        { header: t('values.name'), cell: (value) => value.name, wrap: true },
        {
          header: t('values.valueSource'),
          cell: (value) =>
            `${sourceLabel(t, value.value_source)}${
              value.value_source === 'body'
                ? ` (${bodyDataTypeLabel(t, value.body_data_type)})`
                : ''
            }`,
        },
        { header: t('values.key'), cell: (value) => value.key || '—', wrap: true },
        {
          header: t('values.variable'),
          cell: (value) => <code>{value.variable}</code>,
          wrap: true,
        },
      ]}
      dialog={({ open, item, onClose }) => (
        <ValueDialog
          open={open}
          projectId={projectId}
          integrationId={integrationId}
          value={item}
          onClose={onClose}
        />
      )}
    />
  )
}
