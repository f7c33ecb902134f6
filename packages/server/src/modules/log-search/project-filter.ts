import { sql, type RawBuilder } from 'kysely'
import type { ProjectSearch } from './search-types.js'

/** The tasks a search across a project looks at (`t` is the task table). */
export function projectTaskFilter(search: ProjectSearch): RawBuilder<unknown> {
  const parts = [sql`t.project_id = ${search.projectId}`]
  if (search.templateId !== undefined) parts.push(sql`t.template_id = ${search.templateId}`)
  if (search.from !== undefined) parts.push(sql`t.created >= ${search.from}`)
  if (search.to !== undefined) parts.push(sql`t.created < ${search.to}`)
  return sql.join(parts, sql` and `)
}
