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
 * Anything else is not a repository URL (null), and so is anything git could read as an
 * option or a command: a URL starting with `-` (`--upload-pack=…`, `-c…`), a host or user
 * starting with `-` (handed to ssh), git's `transport::address` form, and control
 * characters.
 */
export function classifyRepositoryUrl(url: string): RepositoryUrlKind | null {
  const value = url.trim()
  if (value === '' || value.startsWith('-')) return null
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null
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
      const rest = value.slice(scheme[0].length)
      const authority = rest.split(/[/?#]/, 1)[0] ?? ''
      if (authority.split('@').some((part) => part.startsWith('-'))) return null
      return rest.length > 0 ? name : null
    }
    return null
  }
  if (/\s/.test(value)) return null
  // scp-like SSH: [user@]host:path, where neither user nor host starts with `-` and the path
  // does not start with `:` (`helper::address` runs a git remote helper).
  return /^([^@/:-][^@/:]*@)?[^@/:-][^@/:]*:[^:].*$/s.test(value) ? 'ssh' : null
}

/** Refusal of a URL that carries a password, on the server and in the console. */
export const REPOSITORY_URL_PASSWORD_MESSAGE =
  'Incorrect URL: put the password in a key of the key store (login with password) instead of the URL'

/** Where the `user:password` part of a `scheme://user:password@host/…` URL is, if any. */
function userInfoOf(url: string): { start: number; end: number } | null {
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.exec(url)
  if (!scheme) return null
  const start = scheme[0].length
  const authority = url.slice(start).split(/[/?#]/, 1)[0] ?? ''
  const at = authority.lastIndexOf('@')
  return at < 0 ? null : { start, end: start + at }
}

/**
 * The password written into a repository URL (`https://user:password@host/…`), or null.
 * A user name alone (`https://user@host/…`, `git@host:path`) carries none.
 */
export function repositoryUrlPassword(url: string): string | null {
  const value = url.trim()
  const info = userInfoOf(value)
  if (!info) return null
  const userInfo = value.slice(info.start, info.end)
  const colon = userInfo.indexOf(':')
  if (colon < 0 || colon === userInfo.length - 1) return null
  return userInfo.slice(colon + 1)
}

/** The URL with its password taken out and its user name kept (`https://user@host/…`). */
export function withoutUrlPassword(url: string): string {
  const info = userInfoOf(url)
  if (!info) return url
  const userInfo = url.slice(info.start, info.end)
  const colon = userInfo.indexOf(':')
  if (colon < 0) return url
  const user = userInfo.slice(0, colon)
  return url.slice(0, info.start) + (user === '' ? '' : `${user}@`) + url.slice(info.end + 1)
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

export const CreateRepositoryBody = z.object({
  ...repositoryFields,
})
export type CreateRepositoryBody = z.input<typeof CreateRepositoryBody>

export const UpdateRepositoryBody = z.object({
  ...repositoryFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateRepositoryBody = z.input<typeof UpdateRepositoryBody>

export const REPOSITORY_SORT_COLUMNS = ['name', 'git_url', 'ssh_key'] as const
