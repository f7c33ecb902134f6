import { getProjectBackup, type Project } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { backupFileName } from '../utils/backup-file-name'

/** Saves a file the browser already holds, as a download. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked later: some browsers read the address only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Downloads the project's backup (names instead of ids, no secrets) as a JSON file. */
export function useExportBackup(project: Project) {
  return useMutation({
    mutationFn: async () => {
      const backup = await api.call(getProjectBackup, { params: { project_id: project.id } })
      saveFile(backupFileName(project.name, new Date()), `${JSON.stringify(backup, null, 2)}\n`)
    },
  })
}
