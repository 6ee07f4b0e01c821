import type { Generated, Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Personal API tokens (docs/security.md#api-tokens): stored as the SHA-256 of the token, with its
 * public prefix for the list, its scopes, its allowed addresses and where it was last used from.
 * A revoked token's row is deleted. audit_logs.api_token names the token an entry was written with.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allowed_addresses', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('last_used_ip', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
  await db.schema.alterTable('audit_logs').addColumn('api_token', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_logs').dropColumn('api_token').execute();
  await db.schema.dropTable('api_tokens').execute();
}

declare module '../schema' {
  interface ApiTokensTable {
    id: Generated<number>;
    user_id: number;
    name: string;
    /** `cpt_` and the public id. */
    prefix: string;
    token_hash: string;
    /** Comma-separated scopes, `read` always among them. */
    scopes: string;
    /** JSON array of CIDR ranges; null: any address. */
    allowed_addresses: string | null;
    created_at: string;
    expires_at: string;
    last_used_at: string | null;
    last_used_ip: string | null;
  }
  interface AuditLogsTable {
    /** The API token the entry was written with (`cpt_… name`); null for a signed-in session. */
    api_token: string | null;
  }
  interface Database {
    api_tokens: ApiTokensTable;
  }
}
