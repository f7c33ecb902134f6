import { z } from 'zod'
import { Id, MAX_ID, MAX_NAME_LENGTH, typeError } from '../common/fields.js'

export const View = z.object({
  id: Id,
  project_id: Id,
  title: z.string(),
  position: z.number().int(),
})
export type View = z.infer<typeof View>

/** Positions are small: the column is a 32-bit integer everywhere. */
const Position = z
  .number({ error: typeError('position', 'an integer') })
  .int('position must be an integer')
  .min(-1_000_000, 'position must be at least -1000000')
  .max(1_000_000, 'position must be at most 1000000')

const viewFields = {
  title: z
    .string({ error: typeError('title', 'a string') })
    .trim()
    .min(1, 'title can not be empty')
    .max(MAX_NAME_LENGTH, `title must be at most ${MAX_NAME_LENGTH} characters`),
  position: Position.default(0),
  project_id: z.number({ error: typeError('project_id', 'a number') }).int(),
}

export const CreateViewBody = z.object({ ...viewFields })
export type CreateViewBody = z.input<typeof CreateViewBody>

export const UpdateViewBody = z.object({
  ...viewFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateViewBody = z.input<typeof UpdateViewBody>

/** View id (as a string key) → position. */
export const ViewPositionsBody = z.record(z.string(), Position).superRefine((positions, ctx) => {
  for (const id of Object.keys(positions)) {
    if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > MAX_ID) {
      ctx.addIssue({
        code: 'custom',
        path: [id],
        message: `view ids must be numbers from 1 to ${MAX_ID}`,
      })
      return
    }
  }
})
export type ViewPositionsBody = z.input<typeof ViewPositionsBody>
