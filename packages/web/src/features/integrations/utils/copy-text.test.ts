import { afterEach, describe, expect, it, vi } from 'vitest'
import { copyText } from './copy-text'

function stubClipboard(writeText: ((text: string) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, 'clipboard', {
    value: writeText ? { writeText } : undefined,
    configurable: true,
  })
}

function stubExecCommand(result: boolean) {
  const execCommand = vi.fn(() => result)
  Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
  return execCommand
}

afterEach(() => {
  stubClipboard(undefined)
})

describe('copyText', () => {
  it('uses the Clipboard API when there is one', async () => {
    const writeText = vi.fn(() => Promise.resolve())
    stubClipboard(writeText)
    const execCommand = stubExecCommand(true)
    await copyText('http://127.0.0.1/api/integrations/abc')
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1/api/integrations/abc')
    expect(execCommand).not.toHaveBeenCalled()
  })

  it('falls back to copying a selection without the Clipboard API', async () => {
    stubClipboard(undefined)
    const execCommand = stubExecCommand(true)
    await copyText('abc')
    expect(execCommand).toHaveBeenCalledWith('copy')
    expect(document.querySelector('textarea')).toBeNull()
  })

  it('falls back when the Clipboard API refuses', async () => {
    stubClipboard(() => Promise.reject(new Error('denied')))
    const execCommand = stubExecCommand(true)
    await copyText('abc')
    expect(execCommand).toHaveBeenCalledWith('copy')
  })

  it('fails when neither way copies', async () => {
    stubClipboard(() => Promise.reject(new Error('denied')))
    stubExecCommand(false)
    await expect(copyText('abc')).rejects.toThrow('denied')
  })
})
