import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * LDAP group → project role mapping: memberships and the admin flag that sign-in gave from
 * directory groups are marked, so sign-in only ever changes or removes what it gave, never
 * what an administrator set by hand.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('project_user')
    .addColumn('ldap_managed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('user')
    .addColumn('ldap_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('user').dropColumn('ldap_admin').execute()
  await db.schema.alterTable('project_user').dropColumn('ldap_managed').execute()
}
