/** Helpers shared by the account suites: unique MACs, direct row edits and balance look-ups. */
import { randomBytes } from 'node:crypto';
import type { TestContext } from './harness';
import { userId } from './harness';

let counter = 0;
/** A MAC address no other test uses (bare 12 hex digits). */
export function uniqueMac(): string {
  counter += 1;
  return `02${randomBytes(3).toString('hex')}${(counter % 0x10000).toString(16).padStart(4, '0')}`.toUpperCase();
}

export const DAY = 86_400_000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

export async function balance(ctx: TestContext, username: string): Promise<{ credits: number; bonus_credits: number }> {
  return ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('username', '=', username).executeTakeFirstOrThrow();
}

export async function accountRow(ctx: TestContext, id: number) {
  return ctx.db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function setAccount(ctx: TestContext, id: number, values: Record<string, unknown>) {
  await ctx.db.kysely.updateTable('accounts').set(values).where('id', '=', id).execute();
}

export async function entriesFor(ctx: TestContext, accountId: number) {
  return ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function accountIdByLogin(ctx: TestContext, login: string): Promise<number> {
  const row = await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', login).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  return row.id;
}

let logins = 0;
/** Creates an account through the API as `username`; returns the API's account object. */
export async function createAccount(ctx: TestContext, username: string, extra: Record<string, unknown> = {}) {
  logins += 1;
  const client = await ctx.as(username);
  const res = await client.post('/accounts', {
    login: `acct${Date.now().toString(36)}${logins}`,
    full_name: `Test Account ${logins}`,
    password: 'stbpass1',
    mac_address: uniqueMac(),
    ...extra,
  });
  if (res.status !== 201) throw new Error(`create as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; login: string; mac_address: string; expiry_date: string | null; [k: string]: unknown };
}

export { userId };
