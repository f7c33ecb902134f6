import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { NewsPage } from './news-page'

describe('NewsPage', () => {
  it('shows three posts, newest first, each with a read-more toggle', async () => {
    renderWithProviders(<NewsPage />)
    const posts = screen.getAllByRole('article')
    expect(posts.map((post) => within(post).getByRole('heading').textContent)).toEqual([
      'Alerts by email and chat',
      'Terraform and OpenTofu state, kept by Flagman',
      'Flagman 0.1.0',
    ])
    const first = posts[0]!
    expect(within(first).getByText('November 24, 2026')).toBeInTheDocument()
    const more = within(first).getByRole('button', { name: 'Read more' })
    expect(more).toHaveAttribute('aria-expanded', 'false')
    expect(within(first).queryByText(/up to three tries/)).not.toBeVisible()

    await userEvent.click(more)
    expect(within(first).getByRole('button', { name: 'Show less' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    expect(within(first).getByText(/up to three tries/)).toBeVisible()
  })
})
