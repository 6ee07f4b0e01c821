import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Indexes that answer the large lists from the index alone (server/http/list.ts pages the ids on the
 * accounts or ledger table, then joins the page's rows only):
 * - live accounts newest first and by expiry, for the admin (the whole table), each ending with the
 *   id that breaks ties, so a deep page skips index entries instead of reading 20,000 rows, and each
 *   carrying the other sort's column, so the expiry filters under either sort read no row;
 * - live accounts by owner path (a subtree is a path range) with the columns the list sorts, filters
 *   and searches, so a reseller's list reads its few thousand index entries and no row;
 * - a user's ledger entries by date, for a subtree's entries newest first;
 * - the accounts' search (login, full name, MAC anywhere in the text): trigrams kept by the database,
 *   FTS5 on SQLite (accounts_search, see server/accounts/list.ts) and pg_trgm on PostgreSQL.
 * PostgreSQL takes partial indexes on live rows with the extra columns as INCLUDE. SQLite counts an
 * index as covering only when it holds every column the query names, the partial condition's
 * column included, and prefers a covering one, so there the indexes lead with deleted_at
 * (`deleted_at is null` is then an equality on it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const raw = (text: string) => sql.raw(text).execute(db);
  if (isPostgres(db)) {
    const live = 'where deleted_at is null';
    await raw(`create index accounts_live_created_idx on accounts (created_at, id) include (expiry_date) ${live}`);
    await raw(`create index accounts_live_expiry_idx on accounts (expiry_date, id) include (created_at) ${live}`);
    await raw(`create index accounts_live_owner_created_idx on accounts (owner_path, created_at, id) include (expiry_date, login, full_name, mac_address) ${live}`);
  } else {
    await raw('create index accounts_live_created_idx on accounts (deleted_at, created_at, id, expiry_date)');
    await raw('create index accounts_live_expiry_idx on accounts (deleted_at, expiry_date, id, created_at)');
    await raw('create index accounts_live_owner_created_idx on accounts (deleted_at, owner_path, created_at, id, expiry_date, login, full_name, mac_address)');
    // A subtree's account count (hierarchy/members.ts) then reads the wide index above, being
    // covering; the owner-path index of migration 0010 is rebuilt the same way to stay the narrow one.
    await raw('drop index accounts_live_owner_path_idx');
    await raw('create index accounts_live_owner_path_idx on accounts (deleted_at, owner_path)');
  }
  await raw('create index credit_transactions_user_created_idx on credit_transactions (user_id, created_at, id)');
  if (isPostgres(db)) await postgresSearch(db);
  else await sqliteSearch(db);
  // Statistics for the new indexes (and, on PostgreSQL, the indexed expressions) before the first list.
  await raw(isPostgres(db) ? 'analyze accounts' : 'analyze accounts_live_created_idx');
  if (!isPostgres(db)) {
    for (const name of ['accounts_live_expiry_idx', 'accounts_live_owner_created_idx', 'accounts_live_owner_path_idx', 'credit_transactions_user_created_idx'])
      await raw(`analyze ${name}`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const name of TRIGRAM_INDEXES) await db.schema.dropIndex(name).ifExists().execute();
  } else {
    for (const trigger of SEARCH_TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    await sql`drop table if exists accounts_search`.execute(db);
    await db.schema.dropIndex('accounts_live_owner_path_idx').execute();
    await db.schema.createIndex('accounts_live_owner_path_idx').on('accounts').column('owner_path').where(sql.ref('deleted_at'), 'is', null).execute();
  }
  for (const name of ['credit_transactions_user_created_idx', 'accounts_live_owner_created_idx', 'accounts_live_expiry_idx', 'accounts_live_created_idx']) {
    await db.schema.dropIndex(name).execute();
  }
}

const TRIGRAM_INDEXES = ['accounts_login_trgm_idx', 'accounts_full_name_trgm_idx', 'accounts_mac_trgm_idx'];
const SEARCH_TRIGGERS = ['accounts_search_insert', 'accounts_search_delete', 'accounts_search_update'];

/**
 * An FTS5 table of the accounts' login, full name and MAC with the trigram tokenizer (every
 * substring of three characters or more, case folded), reading its text from accounts (external
 * content): triggers keep it, and fire only when those columns change.
 */
async function sqliteSearch(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  const row = (prefix: string) => `${prefix}.id, ${prefix}.login, ${prefix}.full_name, ${prefix}.mac_address`;
  await raw(`create virtual table accounts_search using fts5(login, full_name, mac_address, content='accounts', content_rowid='id', tokenize='trigram')`);
  await raw(`insert into accounts_search(accounts_search) values ('rebuild')`);
  const remove = `insert into accounts_search(accounts_search, rowid, login, full_name, mac_address) values ('delete', ${row('old')});`;
  const add = `insert into accounts_search(rowid, login, full_name, mac_address) values (${row('new')});`;
  await raw(`create trigger accounts_search_insert after insert on accounts begin ${add} end`);
  await raw(`create trigger accounts_search_delete after delete on accounts begin ${remove} end`);
  await raw(`create trigger accounts_search_update after update of id, login, full_name, mac_address on accounts begin ${remove} ${add} end`);
}

/**
 * pg_trgm GIN indexes on the expressions the search compares (lower(login), lower(full_name),
 * mac_address), so PostgreSQL answers `like '%term%'` from them with the query unchanged. Not
 * partial: ANALYZE keeps statistics of an index's expressions, and the planner reads those of
 * whole-table indexes only; without them it takes 'smith' (an eighth of the accounts) for a rare
 * term and collects every match through the index. Skipped where the server does not offer
 * pg_trgm: the search still works, by reading the rows.
 */
async function postgresSearch(db: Kysely<any>) {
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  // The operator class lives in the extension's schema, which need not be on the search path.
  const { rows } = await sql<{
    schema: string;
  }>`select quote_ident(n.nspname) as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const ops = `${rows[0].schema}.gin_trgm_ops`;
  const [login, fullName, mac] = TRIGRAM_INDEXES;
  await sql.raw(`create index ${login} on accounts using gin (lower(login) ${ops})`).execute(db);
  await sql.raw(`create index ${fullName} on accounts using gin (lower(full_name) ${ops})`).execute(db);
  await sql.raw(`create index ${mac} on accounts using gin (mac_address ${ops})`).execute(db);
}
