/**
 * PostgreSQL: the API runs as a role that does not own the tables. Only a
 * table's owner (or a superuser) may disable or drop its triggers, alter it, truncate it or set
 * session_replication_role, so a runtime role that owns nothing cannot take the ledger guards away:
 * the guards hold against the application's own connection. Migrations run as the owner
 * (MIGRATION_DATABASE_URL); the API connects as the runtime role (DATABASE_URL).
 *
 * The runtime role gets what the API needs in the schema it works in: select, insert, update and
 * delete on the tables, less update and delete on the append-only ones and any write on the
 * migrations' bookkeeping; usage on the sequences; execute on the functions. Default privileges give
 * the same on tables, sequences and functions later migrations create, and each run of migrations
 * that applied something grants again (migrate.ts), so an append-only table added later loses
 * update and delete too.
 */
import { type Kysely, sql } from 'kysely';

/** Tables whose rows are never changed or deleted once written (migrations 0001, 0006, 0022). */
export const APPEND_ONLY_TABLES = ['credit_transactions', 'audit_logs', 'ledger_operations'];
/** Kysely's migration bookkeeping: readable (the API checks that nothing is pending), never writable. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class RoleRefused extends Error {}

const ident = (name: string) => sql.id(name);

/**
 * Creates the runtime role (or updates it: idempotent), with LOGIN and no other attribute, sets its
 * password when one is given, and grants it what the API needs in the current schema. Run as the
 * tables' owner.
 */
export async function setupRuntimeRole(db: Kysely<any>, role: string, password?: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new RoleRefused(`${role}: a role name is lower-case letters, digits and _, starting with a letter or _`);
  const me = (await sql<{ me: string }>`select current_user as me`.execute(db)).rows[0]?.me;
  if (role === me) throw new RoleRefused(`${role} is the role running this command, the tables' owner: the runtime role must be another one`);
  const existing = (
    await sql<{ super: boolean; owns: boolean }>`
      select r.rolsuper as super,
        exists (select 1 from pg_class c where c.relowner = r.oid and c.relnamespace = current_schema()::regnamespace) as owns
      from pg_roles r where r.rolname = ${role}`.execute(db)
  ).rows[0];
  if (existing?.super) throw new RoleRefused(`${role} is a superuser: it could disable the guards; choose a role that is not`);
  if (existing?.owns) throw new RoleRefused(`${role} owns tables in this schema: it could disable the guards; choose a role that owns none`);
  if (!existing) {
    try {
      await sql`create role ${ident(role)} login`.execute(db);
    } catch (error) {
      // A concurrent run created it first.
      if ((error as { code?: string }).code !== '42710') throw error;
    }
  }
  // NOINHERIT: privileges of roles it may later be made a member of are not its own without SET ROLE.
  await sql`alter role ${ident(role)} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit`.execute(db);
  if (password !== undefined) await sql`alter role ${ident(role)} password ${sql.lit(password)}`.execute(db);
  await grantRuntime(db, role);
}

/** Grants (again) what the runtime role may do in the current schema; idempotent. */
export async function grantRuntime(db: Kysely<any>, role: string): Promise<void> {
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  if (!schema) throw new Error('No current schema');
  const r = ident(role);
  const s = ident(schema);
  const present = new Set((await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = ${schema}`.execute(db)).rows.map((row) => row.name));
  const tables = (names: string[]) => sql.join(names.filter((n) => present.has(n)).map((n) => ident(n)));
  const has = (names: string[]) => names.some((n) => present.has(n));
  await sql`grant usage on schema ${s} to ${r}`.execute(db);
  await sql`revoke all on all tables in schema ${s} from ${r}`.execute(db);
  await sql`grant select, insert, update, delete on all tables in schema ${s} to ${r}`.execute(db);
  if (has(APPEND_ONLY_TABLES)) await sql`revoke update, delete on ${tables(APPEND_ONLY_TABLES)} from ${r}`.execute(db);
  if (has(MIGRATION_TABLES)) await sql`revoke insert, update, delete on ${tables(MIGRATION_TABLES)} from ${r}`.execute(db);
  await sql`revoke all on all sequences in schema ${s} from ${r}`.execute(db);
  await sql`grant usage, select on all sequences in schema ${s} to ${r}`.execute(db);
  await sql`grant execute on all functions in schema ${s} to ${r}`.execute(db);
  await sql`alter default privileges in schema ${s} grant select, insert, update, delete on tables to ${r}`.execute(db);
  await sql`alter default privileges in schema ${s} grant usage, select on sequences to ${r}`.execute(db);
  await sql`alter default privileges in schema ${s} grant execute on functions to ${r}`.execute(db);
}

/**
 * The runtime roles set up in the current schema by the current role: those its default privileges
 * name. After migrations they are granted again (a new append-only table, a table's new sequence).
 */
export async function runtimeRoles(db: Kysely<any>): Promise<string[]> {
  const rows = await sql<{ role: string }>`
    select distinct a.grantee::regrole::text as role
    from pg_default_acl d, aclexplode(d.defaclacl) a
    where d.defaclnamespace = current_schema()::regnamespace and d.defaclrole = current_user::regrole
      and d.defaclobjtype = 'r' and a.grantee <> 0 and a.grantee <> d.defaclrole`.execute(db);
  return rows.rows.map((row) => row.role.replace(/^"|"$/g, ''));
}
