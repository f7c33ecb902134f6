import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** Whether an executable file of that name is on PATH (a directory of that name is not). */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      const file = join(dir, program)
      try {
        accessSync(file, constants.X_OK)
        return statSync(file).isFile()
      } catch {
        return false
      }
    })
}
