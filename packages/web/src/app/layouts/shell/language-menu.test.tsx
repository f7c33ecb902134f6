import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { LanguageMenu } from './language-menu'

describe('LanguageMenu', () => {
  it('offers System and all 15 languages by their own names, without emoji', async () => {
    renderWithProviders(
      <ul>
        <LanguageMenu />
      </ul>,
    )
    await userEvent.click(screen.getByRole('button', { name: /Language/ }))
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem')
    expect(items).toHaveLength(16)
    const names = items.map((item) => item.textContent ?? '')
    expect(names[0]).toBe('System')
    for (const name of ['English', 'Deutsch', '日本語', '한국어', 'Nederlands', 'Українська']) {
      expect(names.some((text) => text.endsWith(name))).toBe(true)
    }
    for (const text of names) {
      expect(text).not.toMatch(/\p{Extended_Pictographic}|\p{Regional_Indicator}/u)
    }
  })
})
