import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import { renderWithProviders } from '../../../testing/render'
import { TaskStatusLabel } from './task-status-label'

describe('TaskStatusLabel', () => {
  it.each([
    ['success', 'Success'],
    ['error', 'Failed'],
    ['stopped', 'Stopped'],
    ['waiting_confirmation', 'Waiting confirmation'],
  ])('shows %s as "%s"', (status, label) => {
    const { container } = renderWithProviders(<TaskStatusLabel status={status} />)
    expect(container).toHaveTextContent(label)
  })

  it('shows rejected without a label and an unknown status as it is', () => {
    renderWithProviders(
      <span data-testid="rejected">
        <TaskStatusLabel status="rejected" />
      </span>,
    )
    expect(screen.getByTestId('rejected')).toBeEmptyDOMElement()
    expect(renderWithProviders(<TaskStatusLabel status="weird" />).container).toHaveTextContent(
      'weird',
    )
  })

  it('speaks the shown language', async () => {
    i18next.addResourceBundle('de', 'tasks', { status: { stopped: 'Gestoppt' } }, true, true)
    await i18next.changeLanguage('de')
    try {
      const { container } = renderWithProviders(<TaskStatusLabel status="stopped" />)
      expect(container).toHaveTextContent('Gestoppt')
    } finally {
      await i18next.changeLanguage('en')
    }
  })
})
