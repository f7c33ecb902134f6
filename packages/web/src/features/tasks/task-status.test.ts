import { describe, expect, it } from 'vitest'
import { labelledStatus, statusColor, taskActions } from './task-status'

describe('task status', () => {
  it('colours statuses as the spec says, unknown as error', () => {
    expect(statusColor('starting')).toBe('warning')
    expect(statusColor('confirmed')).toBe('warning')
    expect(statusColor('waiting_confirmation')).toBe('warning')
    expect(statusColor('running')).toBe('primary')
    expect(statusColor('success')).toBe('success')
    expect(statusColor('error')).toBe('error')
    expect(statusColor('bogus')).toBe('error')
  })

  it('labels every status but rejected', () => {
    expect(labelledStatus('rejected')).toBeNull()
    expect(labelledStatus('waiting_confirmation')).toBe('waiting_confirmation')
  })

  it('offers stop, force stop, confirm and reject by status', () => {
    for (const status of [
      'running',
      'waiting',
      'starting',
      'waiting_confirmation',
      'confirmed',
      'rejected',
    ]) {
      expect(taskActions(status)).toMatchObject({ stop: true, force: false })
    }
    expect(taskActions('stopping')).toMatchObject({ stop: true, force: true })
    for (const status of ['success', 'error', 'stopped']) {
      expect(taskActions(status).stop).toBe(false)
    }
    expect(taskActions('waiting_confirmation')).toMatchObject({ confirm: true, reject: true })
    expect(taskActions('running')).toMatchObject({ confirm: false, reject: false })
  })
})
