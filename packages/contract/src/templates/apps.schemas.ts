import { z } from 'zod'
import { MAX_NAME_LENGTH, typeError } from '../common/fields.js'

/** Apps that ship with the server; they can be edited and deactivated but not deleted. */
export const DEFAULT_APP_IDS = [
  'ansible',
  'terraform',
  'tofu',
  'pulumi',
  'bash',
  'python',
  'powershell',
] as const
export type DefaultAppId = (typeof DEFAULT_APP_IDS)[number]

export function isDefaultApp(id: string): id is DefaultAppId {
  return (DEFAULT_APP_IDS as readonly string[]).includes(id)
}

export const App = z.object({
  id: z.string(),
  active: z.boolean(),
  priority: z.number().int(),
  title: z.string(),
  icon: z.string(),
  color: z.string(),
  dark_color: z.string(),
  path: z.string(),
  args: z.array(z.string()).nullable(),
})
export type App = z.infer<typeof App>

export const AppId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'app id must be 1–32 lowercase letters, digits, - or _')

const text = (label: string, max = MAX_NAME_LENGTH) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .max(max, `${label} is too long`)

export const SaveAppBody = z.object({
  active: z.boolean({ error: typeError('active', 'true or false') }).optional(),
  priority: z
    .number({ error: typeError('priority', 'an integer') })
    .int('priority must be an integer')
    .optional(),
  title: text('title').optional(),
  icon: text('icon').optional(),
  color: text('color', 64).optional(),
  dark_color: text('dark_color', 64).optional(),
  path: text('path', 1024).optional(),
  args: z
    .array(z.string({ error: typeError('each argument', 'a string') }).max(1024))
    .max(100)
    .nullable()
    .optional(),
})
export type SaveAppBody = z.input<typeof SaveAppBody>

export const SetActiveBody = z.object({
  active: z.boolean({ error: typeError('active', 'true or false') }),
})
