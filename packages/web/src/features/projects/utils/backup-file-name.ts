/**
 * The name a project backup is saved under: `project-<name>-<YYYY-MM-DD>.json`, the name
 * reduced to letters, digits, dots, dashes and underscores so that every file system takes it.
 */
export function backupFileName(projectName: string, date: Date): string {
  const name =
    projectName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 80) || 'backup'
  const day = [
    date.getFullYear(),
    String(date.getMonth() + 1).padStart(2, '0'),
    String(date.getDate()).padStart(2, '0'),
  ].join('-')
  return `project-${name}-${day}.json`
}
