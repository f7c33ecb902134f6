import type { OptionEntry, Options } from '@flagman/contract'
import type { Db } from '@flagman/db'

/** Every stored option, by key. */
export async function listOptions(db: Db): Promise<Options> {
  const rows = await db.kysely
    .selectFrom('option')
    .select(['key', 'value'])
    .orderBy('key')
    .execute()
  return Object.fromEntries(rows.map((row) => [row.key, row.value]))
}

/** Stores one option, replacing its value if it is set. */
export async function setOption(db: Db, entry: OptionEntry): Promise<OptionEntry> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('option').where('key', '=', entry.key).execute()
    await trx.insertInto('option').values(entry).execute()
  })
  return entry
}
