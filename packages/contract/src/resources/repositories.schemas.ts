import { z } from 'zod'
import { Id, InputId, MAX_NAME_LENGTH, typeError } from '../common/fields.js'

export const Repository = z.object({
  id: Id,
  name: z.string(),
  project_id: Id,
  git_url: z.string(),
  git_branch: z.string(),
  ssh_key_id: Id,
})
export type Repository = z.infer<typeof Repository>

export type RepositoryUrlKind = 'local' | 'ssh' | 'git' | 'file' | 'http' | 'https'

/**
 * Classifies a repository URL: a leading `/` is a local folder, no scheme means SSH
 * (`git@host:path`), and the schemes git, file, ssh, http and https are accepted.
 * Anything else is not a repository URL (null).
 */
export function classifyRepositoryUrl(url: string): RepositoryUrlKind | null {
  const value = url.trim()
  if (value === '') return null
  if (value.startsWith('/')) return 'local'
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(value)
  if (scheme?.[1]) {
    const name = scheme[1].toLowerCase()
    if (
      name === 'git' ||
      name === 'file' ||
      name === 'ssh' ||
      name === 'http' ||
      name === 'https'
    ) {
      return value.length > scheme[0].length ? name : null
    }
    return null
  }
  if (/\s/.test(value)) return null
  // scp-like SSH: [user@]host:path
  return /^([^@/:]+@)?[^@/:]+:.+$/.test(value) ? 'ssh' : null
}

const repositoryFields = {
  // The compatible API words this one message differently from the other names.
  name: z
    .string({ error: typeError('repository name', 'a string') })
    .trim()
    .min(1, "repository name can't be empty")
    .max(MAX_NAME_LENGTH, `repository name must be at most ${MAX_NAME_LENGTH} characters`),
  project_id: z.number({ error: typeError('project_id', 'a number') }).int(),
  git_url: z
    .string({ error: typeError('git_url', 'a string') })
    .trim()
    .max(2048, 'repository url is too long'),
  git_branch: z
    .string({ error: typeError('git_branch', 'a string') })
    .trim()
    .max(MAX_NAME_LENGTH, `repository branch must be at most ${MAX_NAME_LENGTH} characters`)
    .optional(),
  ssh_key_id: InputId('ssh_key_id'),
}

export const CreateRepositoryBody = z.strictObject({
  ...repositoryFields,
  id: z.unknown().optional(),
})
export type CreateRepositoryBody = z.input<typeof CreateRepositoryBody>

export const UpdateRepositoryBody = z.strictObject({
  ...repositoryFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateRepositoryBody = z.input<typeof UpdateRepositoryBody>

export const REPOSITORY_SORT_COLUMNS = ['name', 'git_url', 'ssh_key'] as const
