import type { Event } from '@flagman/contract'

/**
 * The server words events as the compatible API does, and other clients read them so:
 * "Template ID 3 created" next to "Inventory localhost created". The console rewords the
 * common ones from their parts, so every entry reads alike and in the shown language.
 */

export const EVENT_ACTIONS = ['created', 'updated', 'deleted'] as const
export type EventAction = (typeof EVENT_ACTIONS)[number]

/** The English word(s) each object type starts its description with on the wire. */
const WIRE_PREFIXES = {
  template: 'Template',
  inventory: 'Inventory',
  key: 'Access Key',
  repository: 'Repository',
  environment: 'Environment',
  schedule: 'Schedule',
  view: 'View',
  integration: 'Integration',
  user: 'User',
  project: 'Project',
} as const
export type EventObjectType = keyof typeof WIRE_PREFIXES

export interface EventParts {
  type: EventObjectType
  action: EventAction
  /** The object's name, or null when the description names it by id only. */
  name: string | null
  id: number | null
}

function isObjectType(value: string): value is EventObjectType {
  return Object.hasOwn(WIRE_PREFIXES, value)
}

/** The parts of a created/updated/deleted event, or null for any other wording. */
export function eventParts(event: Event): EventParts | null {
  if (!isObjectType(event.object_type)) return null
  const match = /^(.*) (created|updated|deleted)$/.exec(event.description)
  if (!match) return null
  const [, subject = '', action] = match
  const prefix = `${WIRE_PREFIXES[event.object_type]} `
  if (!subject.startsWith(prefix)) return null
  const rest = subject.slice(prefix.length).trim()
  const byId = /^ID (\d+)$/.exec(rest)
  const name = event.object_name || (byId ? null : rest)
  if (!name && !byId && event.object_id === null) return null
  return {
    type: event.object_type,
    action: action as EventAction,
    name: name || null,
    id: byId ? Number(byId[1]) : event.object_id,
  }
}
