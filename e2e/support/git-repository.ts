import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A git repository in the temp folder with `files` committed on main; removed by `dispose`. */
export function gitRepository(files: Record<string, string>): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), 'flagman-e2e-repo-'))
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: path,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.test',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.test',
      },
    })
  git('init', '-q', '-b', 'main')
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text)
  git('add', '.')
  git('commit', '-q', '-m', 'files')
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) }
}
