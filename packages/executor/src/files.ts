import { realpathSync, statSync, type Stats } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { performance } from 'node:perf_hooks'

/**
 * The job's private temporary folder (mode 0700) under the work root. Every secret the job
 * writes lives here with mode 0600, and the whole folder is removed when the job ends. A
 * task's folder is made on its first file: most tasks (a script of the repository) write
 * none, and their start should not wait for the file system.
 */
export class TempDir {
  /** The folder, once made. */
  private made: Promise<string> | null = null

  private constructor(
    private readonly workRoot: string,
    private readonly prefix: string,
  ) {}

  /** A task's folder, made when the first file is written. */
  static create(workRoot: string, taskId: number): TempDir {
    return new TempDir(workRoot, `task_${String(taskId)}_tmp_`)
  }

  /** A temporary folder whose name starts with `prefix`, for work that is not a task. */
  static async createNamed(workRoot: string, prefix: string): Promise<TempDir & { path: string }> {
    const temp = new TempDir(workRoot, prefix)
    const path = await temp.folder()
    return Object.assign(temp, { path })
  }

  private folder(): Promise<string> {
    this.made ??= (async () => {
      await mkdir(this.workRoot, { recursive: true, mode: 0o700 })
      // mkdtemp makes the folder with mode 0700.
      return mkdtemp(join(this.workRoot, this.prefix))
    })()
    return this.made
  }

  private readonly used = new Set<string>()
  /** Milliseconds spent making the folder and writing files, for the task's start timings. */
  spentMs = 0

  /** Writes a new file; a name already used in this job gets a numeric suffix. */
  async write(name: string, content: string, mode = 0o600): Promise<string> {
    let unique = name
    for (let n = 2; this.used.has(unique); n += 1) unique = `${name}_${String(n)}`
    this.used.add(unique)
    const started = performance.now()
    try {
      const file = join(await this.folder(), unique)
      await writeFile(file, content, { mode, flag: 'wx' })
      return file
    } finally {
      this.spentMs += performance.now() - started
    }
  }

  async remove(): Promise<void> {
    if (this.made === null) return
    const path = await this.made.catch(() => null)
    if (path !== null) await rm(path, { recursive: true, force: true })
  }
}

/** A path a template or task gave that is not usable: the job ends in error with its message. */
export class PathEscapeError extends Error {}

function isInside(root: string, full: string): boolean {
  const rel = relative(root, full)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/**
 * Resolves a repository-relative path, refusing absolute paths and `..` escapes so a
 * template cannot make the executor run or read something outside the repository. Only the
 * text is checked; `resolveRepoPath` also checks what is on disk.
 */
export function resolveInside(root: string, path: string, what = 'Path'): string {
  const full = resolve(root, path)
  if (isAbsolute(path) || !isInside(root, full)) {
    throw new PathEscapeError(`${what} "${path}" is outside the repository`)
  }
  return full
}

/**
 * The absolute, symlink-free path of an existing regular file (or directory) inside the
 * repository, for handing to a program. The path is resolved with every symbolic link
 * followed, so a link pointing out of the checkout is refused like `..`; and since the
 * answer is absolute, a path such as `-c` can never be read as an option.
 *
 * @param what names the path in the error, e.g. `Playbook`.
 * @param kind what must be there: a regular file, a directory, or either (`entry`).
 */
export async function resolveRepoPath(
  root: string,
  path: string,
  what: string,
  kind: 'file' | 'directory' | 'entry' = 'file',
): Promise<string> {
  const noun = kind === 'entry' ? 'file or directory' : kind
  const notThere = (): PathEscapeError =>
    new PathEscapeError(`${what} "${path}" is not a ${noun} in the repository`)
  if (path === '' || path.includes('\0')) throw notThere()
  const full = resolveInside(root, path, what)
  // Synchronous: metadata of local files, microseconds each, on every task's start, where a
  // round trip through the thread pool costs milliseconds on a busy machine.
  let realRoot: string
  let real: string
  let info: Stats
  try {
    realRoot = realpathSync.native(root)
    real = realpathSync.native(full)
    info = statSync(real)
  } catch {
    throw notThere()
  }
  if (!isInside(realRoot, real)) {
    throw new PathEscapeError(`${what} "${path}" is outside the repository`)
  }
  const fits =
    kind === 'file'
      ? info.isFile()
      : kind === 'directory'
        ? info.isDirectory()
        : info.isFile() || info.isDirectory()
  if (!fits) throw notThere()
  return real
}
