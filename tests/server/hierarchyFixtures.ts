/** Helpers for the hierarchy and credit tests: fresh branches created through the API. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Client, TestContext } from './harness';

export const PASSWORD = 'password123';

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export interface Created {
  id: number;
  username: string;
  client: Client;
}

async function signIn(ctx: TestContext, username: string): Promise<Client> {
  const res = await ctx.anonymous.post('/login', { username, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ctx.client(res.body.token);
}

export async function createManager(ctx: TestContext, credits = 0, extra: Record<string, unknown> = {}): Promise<Created> {
  const admin = await ctx.as('admin');
  const username = uniqueName('mgr');
  const res = await admin.post('/managers', { name: `Manager ${username}`, username, password: PASSWORD, credits, server_id: 1, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, username, client: await signIn(ctx, username) };
}

export async function createReseller(ctx: TestContext, by: Client, credits = 0, extra: Record<string, unknown> = {}): Promise<Created> {
  const username = uniqueName('res');
  const res = await by.post('/resellers', { name: `Reseller ${username}`, username, password: PASSWORD, credits, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, username, client: await signIn(ctx, username) };
}

export async function createDealer(ctx: TestContext, by: Client, credits = 0, extra: Record<string, unknown> = {}): Promise<Created> {
  const username = uniqueName('dlr');
  const res = await by.post('/dealers', { name: `Dealer ${username}`, username, password: PASSWORD, credits, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, username, client: await signIn(ctx, username) };
}

/** A manager > reseller > dealer branch with the given balances, credits moved down through the API. */
export async function createBranch(ctx: TestContext, credits: { manager?: number; reseller?: number; dealer?: number } = {}) {
  const manager = await createManager(ctx, (credits.manager ?? 0) + (credits.reseller ?? 0) + (credits.dealer ?? 0));
  const reseller = await createReseller(ctx, manager.client, (credits.reseller ?? 0) + (credits.dealer ?? 0));
  const dealer = await createDealer(ctx, reseller.client, credits.dealer ?? 0);
  return { manager, reseller, dealer };
}

export async function balance(ctx: TestContext, id: number): Promise<{ credits: number; bonus_credits: number }> {
  return ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** End-user account rows owned by `ownerId` (straight into the table: these tests are about users). */
export async function insertAccounts(ctx: TestContext, ownerId: number, count: number, serverId = 1): Promise<number[]> {
  const owner = await ctx.db.kysely.selectFrom('users').select('path').where('id', '=', ownerId).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, () => ({
    owner_id: ownerId,
    owner_path: owner.path,
    server_id: serverId,
    login: uniqueName('acc'),
    full_name: 'Test Account',
    pwd_txt: 'secret',
    mac_address: randomBytes(6).toString('hex').toUpperCase(),
    expiry_date: null,
    validity_months: 0,
    status: 'active',
    is_promo: 0,
    bonus_months: 0,
    is_trial: 0,
    auto_renew_months: null,
    auto_renew_end_date: null,
    auto_renew_failed_at: null,
    auto_renew_error: null,
    state: 'offline',
    last_active: null,
    ip_address: null,
    connection_status: 'offline',
    device_info: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await ctx.db.kysely
      .insertInto('accounts')
      .values(rows.slice(i, i + 500))
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export async function insertAccount(ctx: TestContext, ownerId: number, serverId = 1): Promise<number> {
  const [id] = await insertAccounts(ctx, ownerId, 1, serverId);
  return id;
}

/** Every key anywhere in a JSON value. */
export function allKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) allKeys(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      allKeys(v, out);
    }
  }
  return out;
}

export async function lastAudit(ctx: TestContext, module: string, action: string, entityId: number) {
  return ctx.db.kysely
    .selectFrom('audit_logs')
    .selectAll()
    .where('module', '=', module)
    .where('action', '=', action)
    .where('entity_id', '=', entityId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Sets a balance the API cannot reach (near the caps) by direct SQL, the only way the database takes:
 * an adjustment entry from the current balance to `credits`, which the database applies.
 */
export async function setBalanceByEntry(ctx: TestContext, id: number, credits: number): Promise<void> {
  const current = await balance(ctx, id);
  // Its operation first: the database takes only entries that name a recorded one (migration 0022).
  const operationId = `test-adjustment-${randomBytes(6).toString('hex')}`;
  await ctx.db.kysely
    .insertInto('ledger_operations')
    .values({ id: operationId, kind: 'adjustment', actor_id: null, entries: 1, created_at: new Date().toISOString() })
    .execute();
  await ctx.db.kysely
    .insertInto('credit_transactions')
    .values({
      transaction_number: `TEST-${randomBytes(6).toString('hex')}`,
      user_id: id,
      type: 'PURCHASED',
      credits: credits - current.credits,
      bonus_credits: 0,
      balance_before: current.credits,
      balance_after: credits,
      counterparty_id: null,
      actor_id: null,
      account_id: null,
      operation_id: operationId,
      coverage_start: null,
      coverage_end: null,
      remarks: 'Test adjustment',
      created_at: new Date().toISOString(),
    })
    .execute();
}
