import type { ProjectBackupInput } from '@flagman/contract'

export type BackupFileResult =
  { ok: true; backup: ProjectBackupInput; name: string } | { ok: false; reason: string }

/** Reads a chosen backup file: it must be JSON with a `meta` object. */
export async function readBackupFile(file: File): Promise<BackupFileResult> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await file.text())
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  if (typeof parsed !== 'object' || parsed === null || !('meta' in parsed)) {
    return { ok: false, reason: 'meta' }
  }
  const meta = (parsed as { meta: unknown }).meta
  const name =
    typeof meta === 'object' && meta !== null && 'name' in meta && typeof meta.name === 'string'
      ? meta.name
      : ''
  return { ok: true, backup: parsed as ProjectBackupInput, name }
}
