import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AnsiLine } from './ansi-line'

describe('AnsiLine', () => {
  it('turns colour codes into styled spans and keeps markup as text', () => {
    const { container } = render(<AnsiLine text={'\u001b[1;31m<b>red</b>\u001b[0m plain'} />)
    expect(container.querySelector('b')).toBeNull()
    const spans = [...container.querySelectorAll('span')]
    expect(spans.map((span) => span.textContent)).toEqual(['<b>red</b>', ' plain'])
    expect(spans[0]).toHaveStyle({ color: 'rgb(187, 0, 0)', fontWeight: 'bold' })
    expect(container.textContent).toBe('<b>red</b> plain')
  })

  it('shows a line without escape sequences as it is', () => {
    const { container } = render(<AnsiLine text="<img src=x onerror=alert(1)> done" />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toBe('<img src=x onerror=alert(1)> done')
  })
})
