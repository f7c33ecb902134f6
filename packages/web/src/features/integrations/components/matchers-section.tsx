import type { IntegrationMatcher } from '@flagman/contract'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDeleteMatcher, useMatchers } from '../api/matchers'
import { bodyDataTypeLabel, matchMethodLabel, sourceLabel } from '../utils/labels'
import { MatcherDialog } from './matcher-dialog'
import { PartsSection } from './parts-section'

export interface MatchersSectionProps {
  projectId: number
  integrationId: number
  text?: ReactNode
  canManage: boolean
}

export function MatchersSection({
  projectId,
  integrationId,
  text,
  canManage,
}: MatchersSectionProps) {
  const { t } = useTranslation('integrations')
  return (
    <PartsSection<IntegrationMatcher>
      kind="matchers"
      text={text}
      canManage={canManage}
      items={useMatchers(projectId, integrationId)}
      remove={useDeleteMatcher(projectId, integrationId)}
      columns={[
        { header: t('matchers.name'), cell: (matcher) => matcher.name, wrap: true },
        {
          header: t('matchers.matchType'),
          cell: (matcher) =>
            `${sourceLabel(t, matcher.match_type)}${
              matcher.match_type === 'body'
                ? ` (${bodyDataTypeLabel(t, matcher.body_data_type)})`
                : ''
            }`,
        },
        { header: t('matchers.key'), cell: (matcher) => matcher.key || '—', wrap: true },
        { header: t('matchers.method'), cell: (matcher) => matchMethodLabel(t, matcher.method) },
        { header: t('matchers.value'), cell: (matcher) => matcher.value, wrap: true },
      ]}
      dialog={({ open, item, onClose }) => (
        <MatcherDialog
          open={open}
          projectId={projectId}
          integrationId={integrationId}
          matcher={item}
          onClose={onClose}
        />
      )}
    />
  )
}
