import type { EnvironmentSecret, SecretChange, SecretType } from '@flagman/contract'

/** A secret as edited in the form; `secretId` is null for a secret added in this form. */
export interface SecretRow {
  secretId: number | null
  name: string
  type: SecretType
  /** A new value; empty keeps the stored one of an existing secret. */
  value: string
}

export function secretToRow(secret: EnvironmentSecret): SecretRow {
  return {
    secretId: secret.id,
    name: secret.name,
    type: secret.type,
    value: '',
  }
}

/**
 * The operations that turn the stored secrets into the edited rows: removed secrets are deleted,
 * new rows created, and existing secrets given a new value updated. Others are left out, so they
 * stay as they are. Deletes come first, so a name can be freed and reused in one save.
 */
export function secretChanges(
  original: readonly EnvironmentSecret[],
  rows: readonly SecretRow[],
): SecretChange[] {
  const kept = new Set(rows.map((row) => row.secretId).filter((id) => id !== null))
  const changes: SecretChange[] = original
    .filter((secret) => !kept.has(secret.id))
    .map((secret) => ({ operation: 'delete', id: secret.id }))
  for (const row of rows) {
    if (row.secretId === null) {
      changes.push({
        operation: 'create',
        name: row.name.trim(),
        type: row.type,
        secret: row.value,
      })
    } else if (row.value !== '') {
      changes.push({
        operation: 'update',
        id: row.secretId,
        name: row.name,
        type: row.type,
        secret: row.value,
      })
    }
  }
  return changes
}
