import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { TaskStatusChip } from './task-status-chip'

const CASES = [
  { status: 'waiting', label: 'Waiting', color: 'default', icon: 'alarm' },
  { status: 'starting', label: 'Starting...', color: 'warning', icon: 'play' },
  { status: 'running', label: 'Running', color: 'primary', icon: 'play' },
  { status: 'success', label: 'Success', color: 'success', icon: 'check' },
  { status: 'error', label: 'Failed', color: 'error', icon: 'info' },
  { status: 'stopping', label: 'Stopping...', color: 'default', icon: 'stop' },
  { status: 'stopped', label: 'Stopped', color: 'default', icon: 'stop' },
  { status: 'confirmed', label: 'Confirmed', color: 'warning', icon: 'check' },
  {
    status: 'waiting_confirmation',
    label: 'Waiting confirmation',
    color: 'warning',
    icon: 'pause',
  },
] as const

function chipOf(label: string): HTMLElement {
  const chip = screen.getByText(label, { exact: true }).closest('[data-status]')
  if (!(chip instanceof HTMLElement)) throw new Error(`no chip for ${label}`)
  return chip
}

describe('TaskStatusChip', () => {
  it.each(CASES)('shows $status as "$label" in $color', ({ status, label, color, icon }) => {
    renderWithProviders(<TaskStatusChip status={status} />)
    const chip = chipOf(label)
    expect(chip).toHaveAttribute('data-status', status)
    expect(chip).toHaveAttribute('data-icon', icon)
    expect(chip.querySelector('svg')).not.toBeNull()
    const colorClass =
      color === 'default'
        ? 'MuiChip-colorDefault'
        : `MuiChip-color${color[0]?.toUpperCase()}${color.slice(1)}`
    expect(chip).toHaveClass(colorClass)
  })

  it('shows an unknown status as an error with its raw name', () => {
    renderWithProviders(<TaskStatusChip status="exploded" />)
    const chip = chipOf('exploded')
    expect(chip).toHaveClass('MuiChip-colorError')
    expect(chip).toHaveAttribute('data-icon', 'error')
  })

  it('shows neither label nor icon for rejected', () => {
    renderWithProviders(<TaskStatusChip status="rejected" />)
    expect(document.querySelector('[data-status]')).toBeNull()
    expect(screen.queryByText('rejected')).not.toBeInTheDocument()
  })
})
