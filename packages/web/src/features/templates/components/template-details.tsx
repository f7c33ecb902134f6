import type {
  AccessKey,
  Environment,
  Inventory,
  Repository,
  Template,
  View,
} from '@flagman/contract'
import { appFields } from '@flagman/contract'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { surveyTypeLabel } from './survey-vars-editor'

export interface TemplateDetailsProps {
  template: Template
  inventories: readonly Inventory[]
  environments: readonly Environment[]
  repositories: readonly Repository[]
  keys: readonly AccessKey[]
  views: readonly View[]
  templates: readonly Template[]
  /** Workspaces of a Terraform or OpenTofu template. */
  workspaces?: readonly Inventory[]
}

function parseArgs(text: string | null): string[] {
  if (!text) return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.map(String) : []
  } catch {
    return []
  }
}

export function TemplateDetails({
  template,
  inventories,
  environments,
  repositories,
  keys,
  views,
  templates,
  workspaces = [],
}: TemplateDetailsProps) {
  const { t } = useTranslation('templates')
  const none = t('details.none')
  const nameOf = (list: readonly { id: number; name: string }[], id: number | null) =>
    id === null ? none : (list.find((item) => item.id === id)?.name ?? `#${id}`)
  const fields = appFields(template.app)
  const args = parseArgs(template.arguments)

  const rows: [string, ReactNode][] = [
    [t('details.app'), template.app],
    [
      t('details.type'),
      t(
        template.type === 'build'
          ? 'types.build'
          : template.type === 'deploy'
            ? 'types.deploy'
            : 'types.task',
      ),
    ],
    [t(`form.playbook.${fields.playbookKind}`), template.playbook || none],
  ]
  if (template.type === 'build') {
    rows.push([t('details.startVersion'), template.start_version || none])
  }
  if (template.type === 'deploy') {
    rows.push([t('details.buildTemplate'), nameOf(templates, template.build_template_id)])
  }
  if (template.app === 'terraform' || template.app === 'tofu') {
    rows.push([t('form.workspace'), nameOf(workspaces, template.inventory_id)])
  } else if (fields.inventory !== 'hidden') {
    rows.push([t('details.inventory'), nameOf(inventories, template.inventory_id)])
  }
  rows.push(
    [t('details.environment'), nameOf(environments, template.environment_id)],
    [t('details.repository'), nameOf(repositories, template.repository_id)],
    [t('details.branch'), template.git_branch || none],
    [
      t('details.view'),
      nameOf(
        views.map((view) => ({ id: view.id, name: view.title })),
        template.view_id,
      ),
    ],
    [
      t('details.arguments'),
      args.length > 0 ? (
        <Box component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {args.join(' ')}
        </Box>
      ) : (
        none
      ),
    ],
    [
      t('details.surveyVars'),
      template.survey_vars && template.survey_vars.length > 0 ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {template.survey_vars.map((variable) => (
            <Chip
              key={variable.name}
              size="small"
              label={`${variable.title} (${variable.name}, ${surveyTypeLabel(t, variable.type)})`}
            />
          ))}
        </Box>
      ) : (
        none
      ),
    ],
  )
  if (fields.vaults) {
    rows.push([
      t('details.vaults'),
      template.vaults.length > 0 ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {template.vaults.map((vault) => (
            <Chip
              key={vault.id}
              size="small"
              label={`${vault.name ?? t('details.defaultVault')}: ${
                vault.type === 'script' ? (vault.script ?? '') : nameOf(keys, vault.vault_key_id)
              }`}
            />
          ))}
        </Box>
      ) : (
        none
      ),
    ])
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="subtitle2" component="h2" sx={{ color: 'text.secondary' }}>
        {t('details.description')}
      </Typography>
      <Typography sx={{ mb: 2, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {template.description || t('details.noDescription')}
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' },
          columnGap: 2,
          rowGap: { xs: 0.25, sm: 1 },
          m: 0,
          '& dt': { color: 'text.secondary', mt: { xs: 1, sm: 0 } },
          '& dd': { m: 0, wordBreak: 'break-word' },
        }}
      >
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Box>
        ))}
      </Box>
    </Paper>
  )
}
