import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/**
 * The job's private temporary folder (mode 0700) under the work root. Every secret the job
 * writes lives here with mode 0600, and the whole folder is removed when the job ends.
 */
export class TempDir {
  private constructor(readonly path: string) {}

  static async create(workRoot: string, taskId: number): Promise<TempDir> {
    return TempDir.createNamed(workRoot, `task_${String(taskId)}_tmp_`)
  }

  /** A temporary folder whose name starts with `prefix`, for work that is not a task. */
  static async createNamed(workRoot: string, prefix: string): Promise<TempDir> {
    await mkdir(workRoot, { recursive: true, mode: 0o700 })
    const path = await mkdtemp(join(workRoot, prefix))
    await chmod(path, 0o700)
    return new TempDir(path)
  }

  private readonly used = new Set<string>()

  /** Writes a new file; a name already used in this job gets a numeric suffix. */
  async write(name: string, content: string, mode = 0o600): Promise<string> {
    let unique = name
    for (let n = 2; this.used.has(unique); n += 1) unique = `${name}_${String(n)}`
    this.used.add(unique)
    const file = join(this.path, unique)
    await writeFile(file, content, { mode, flag: 'wx' })
    return file
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true })
  }
}

export class PathEscapeError extends Error {}

/**
 * Resolves a repository-relative path, refusing absolute paths and `..` escapes so a
 * template cannot make the executor run or read something outside the repository.
 */
export function resolveInside(root: string, path: string): string {
  if (isAbsolute(path)) {
    throw new PathEscapeError(`Path must be relative to the repository: ${path}`)
  }
  const full = resolve(root, path)
  const rel = relative(root, full)
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new PathEscapeError(`Path escapes the repository: ${path}`)
  }
  return full
}
