import { describe, expect, it } from 'vitest'
import { outsideEnv, outsideEnvAllowed } from '../src/index.js'

/**
 * What a webhook delivery carries may become a variable of the task's process, but never one
 * that makes the shell, an interpreter, the loader or a tool run other code.
 */
describe('process environment set from outside values', () => {
  it('lets plain names through', () => {
    for (const name of ['REF', 'ref', 'commit_id', '_X', 'BRANCH_NAME', 'PATHNAME', 'MY_PATH']) {
      expect(outsideEnvAllowed(name), name).toBe(true)
    }
  })

  it('refuses what changes how programs run, in any letter case', () => {
    for (const name of [
      'PATH',
      'path',
      'LD_PRELOAD',
      'ld_library_path',
      'DYLD_INSERT_LIBRARIES',
      'BASH_ENV',
      'BASH_FUNC_x',
      'ENV',
      'IFS',
      'PS4',
      'PROMPT_COMMAND',
      'HOME',
      'PYTHONPATH',
      'PYTHONSTARTUP',
      'ANSIBLE_CONFIG',
      'GIT_SSH_COMMAND',
      'GIT_REF',
      'SSH_AUTH_SOCK',
      'TF_CLI_ARGS',
      'PERL5OPT',
      'NODE_OPTIONS',
      'https_proxy',
      'SEMAPHORE_TASK_ID',
    ]) {
      expect(outsideEnvAllowed(name), name).toBe(false)
    }
  })

  it('refuses names a shell can not read', () => {
    for (const name of ['', '1A', 'A-B', 'A B', 'A=B', 'BASH_FUNC_f%%']) {
      expect(outsideEnvAllowed(name), name).toBe(false)
    }
  })

  it('keeps the allowed variables as text and names the others', () => {
    expect(
      outsideEnv({
        REF: 'refs/heads/main',
        COUNT: 3,
        DRY: false,
        LD_PRELOAD: '/tmp/x.so',
        NESTED: { a: 1 },
        NOTHING: null,
        NUL: 'a\0b',
      }),
    ).toEqual({
      env: { REF: 'refs/heads/main', COUNT: '3', DRY: 'false' },
      skipped: ['LD_PRELOAD', 'NESTED', 'NOTHING', 'NUL'],
    })
  })
})
