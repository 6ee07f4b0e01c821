/**
 * The ledger rules (docs/architecture.md, docs/reliability.md) under load: a few hundred concurrent mixed credit operations through
 * the HTTP API (adds, recovers, account renewals, with duplicated Idempotency-Keys), then the
 * invariants checked on the whole ledger, on SQLite and PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Client, Response, TestContext } from './harness';
import { describeEachDatabase, userId } from './harness';
import { random } from '../../server/seed/scale';
import { createDealer, createManager, createReseller } from './hierarchyFixtures';

const OPERATIONS = 300;

/** A small deterministic generator, so a failure can be replayed. */
const prng = random;

interface Op {
  kind: 'mint' | 'burn' | 'give' | 'take' | 'renew';
  client: Client;
  url: string;
  body: Record<string, unknown>;
  key: string;
}

async function createAccount(ctx: TestContext, owner: Client): Promise<number> {
  const mac = randomBytes(6).toString('hex').toUpperCase();
  const res = await owner.post('/accounts', { login: `acc_${mac.toLowerCase()}`, full_name: 'Load Test', password: 'stb-pass', mac_address: mac });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function ledgerChecks(ctx: TestContext) {
  const db = ctx.db.kysely;
  const users = await db.selectFrom('users').select(['id', 'role', 'credits', 'bonus_credits']).orderBy('id').execute();
  const entries = await db.selectFrom('credit_transactions').selectAll().orderBy('id').execute();
  const byUser = new Map<number, typeof entries>();
  for (const e of entries) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e]);
  for (const u of users) {
    expect(u.credits, `user ${u.id} balance`).toBeGreaterThanOrEqual(0);
    expect(u.bonus_credits, `user ${u.id} bonus`).toBeGreaterThanOrEqual(0);
    expect(u.bonus_credits, `user ${u.id} bonus within balance`).toBeLessThanOrEqual(u.credits);
    const own = byUser.get(u.id) ?? [];
    expect(
      own.reduce((s, e) => s + e.credits, 0),
      `user ${u.id} credits = sum of entries`,
    ).toBe(u.credits);
    expect(
      own.reduce((s, e) => s + e.bonus_credits, 0),
      `user ${u.id} bonus = sum of entries`,
    ).toBe(u.bonus_credits);
    let previous = 0;
    for (const e of own) {
      expect(e.balance_before, `entry ${e.id} continues the previous balance`).toBe(previous);
      expect(e.balance_after).toBe(e.balance_before + e.credits);
      expect(e.balance_after).toBeGreaterThanOrEqual(0);
      previous = e.balance_after;
    }
    if (u.role === 'admin') expect(own).toEqual([]);
  }
  return { users, entries };
}

describeEachDatabase(
  'ledger invariants under concurrent operations',
  (ctx) => {
    it(`keeps every balance equal to its entries after ${OPERATIONS} concurrent operations`, { timeout: 240_000 }, async () => {
      const db = ctx.db.kysely;
      const admin = await ctx.as('admin');
      const adminId = await userId(ctx, 'admin');
      const now = new Date().toISOString();
      // Bonus flows too: a promo on the Backup Server, and the default credit levels (20%).
      await db
        .insertInto('user_promos')
        .values({ name: 'Load promo', description: null, server_id: 2, credits_required: 15, bonus_credits: 4, is_active: 1, created_at: now, updated_at: now })
        .execute();

      const A = await createManager(ctx, 3000);
      const B = await createManager(ctx, 2000, { server_id: 2 });
      const RA1 = await createReseller(ctx, A.client, 400);
      const RA2 = await createReseller(ctx, A.client, 300);
      const RB1 = await createReseller(ctx, B.client, 400);
      const DA1 = await createDealer(ctx, RA1.client, 60);
      const DA2 = await createDealer(ctx, RA1.client, 60);
      const DB1 = await createDealer(ctx, RB1.client, 60);
      const accounts = {
        DA1: await createAccount(ctx, DA1.client),
        DA2: await createAccount(ctx, DA2.client),
        DB1: await createAccount(ctx, DB1.client),
        RA1: await createAccount(ctx, RA1.client),
      };

      const before = await ledgerChecks(ctx);
      const maxEntryBefore = before.entries.at(-1)!.id;
      const totalBefore = before.users.reduce((s, u) => s + u.credits, 0);

      const rand = prng(20240601);
      const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)];
      const amount = (max: number) => 1 + Math.floor(rand() * max);
      const move = (kind: Op['kind'], client: Client, resource: string, id: number, credits: number): Omit<Op, 'key'> => ({
        kind,
        client,
        url: `/${resource}/${id}/credits`,
        body: { action: kind === 'mint' || kind === 'give' ? 'renew' : 'recover', credits },
      });
      const makers: Array<() => Omit<Op, 'key'>> = [
        () => move('mint', admin, 'managers', pick([A.id, B.id]), amount(40)),
        () => move('mint', admin, 'resellers', RA2.id, amount(20)),
        () => move('burn', admin, 'managers', pick([A.id, B.id]), amount(30)),
        () => move('burn', admin, 'dealers', DB1.id, amount(10)),
        () => move('give', A.client, 'resellers', pick([RA1.id, RA2.id]), amount(30)),
        () => move('take', A.client, 'resellers', pick([RA1.id, RA2.id]), amount(25)),
        () => move('give', B.client, 'resellers', RB1.id, amount(30)),
        () => move('take', B.client, 'resellers', RB1.id, amount(25)),
        () => move('give', RA1.client, 'dealers', pick([DA1.id, DA2.id]), amount(20)),
        () => move('take', RA1.client, 'dealers', pick([DA1.id, DA2.id]), amount(20)),
        () => move('give', RB1.client, 'dealers', DB1.id, amount(20)),
        () => move('take', RB1.client, 'dealers', DB1.id, amount(20)),
        () => {
          const [client, account] = pick([
            [DA1.client, accounts.DA1],
            [DA2.client, accounts.DA2],
            [DB1.client, accounts.DB1],
            [RA1.client, accounts.RA1],
            [RA1.client, accounts.DA1],
          ] as Array<[Client, number]>);
          return { kind: 'renew', client, url: `/accounts/${account}/credits`, body: { action: 'renew', months: amount(3) } };
        },
      ];
      const ops: Op[] = [];
      while (ops.length < OPERATIONS) {
        const op = { ...pick(makers)(), key: `load-${ops.length}-${randomBytes(4).toString('hex')}` };
        ops.push(op);
        // Every tenth operation is sent twice with the same key (a double click).
        if (ops.length % 10 === 0) ops.push({ ...op });
      }

      const answers: Response[] = await Promise.all(ops.map((op) => op.client.post(op.url, op.body, { 'idempotency-key': op.key })));

      const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 422);
      expect(unexpected.map((a) => [a.status, a.body])).toEqual([]);
      for (const a of answers.filter((x) => x.status === 422)) {
        const fields = Object.keys(a.body.errors ?? {});
        expect(['paid_credits', 'credits'], JSON.stringify(a.body)).toEqual(expect.arrayContaining(fields));
      }

      // Per key, the accepted answer counts, and every accepted answer of a key is the same one. (A
      // refused request stores nothing, so its concurrent twin may still run and be accepted.)
      const firstByKey = new Map<string, { op: Op; answer: Response }>();
      ops.forEach((op, i) => {
        const seen = firstByKey.get(op.key);
        if (!seen || seen.answer.status !== 200) firstByKey.set(op.key, { op, answer: answers[i] });
        else if (answers[i].status === 200) expect(answers[i].body).toEqual(seen.answer.body);
      });
      let minted = 0;
      let burned = 0;
      let succeeded = 0;
      const okKinds = new Set<string>();
      for (const { op, answer } of firstByKey.values()) {
        if (answer.status !== 200) continue;
        succeeded++;
        okKinds.add(op.kind);
        if (op.kind === 'renew') continue;
        const { credits, bonus_credits } = answer.body.data;
        if (op.kind === 'mint') minted += credits + bonus_credits;
        if (op.kind === 'give') minted += bonus_credits;
        if (op.kind === 'burn') burned += credits + bonus_credits;
        if (op.kind === 'take') burned += bonus_credits;
      }
      // Most operations fit the balances; some are refused, which exercises the conditional debits.
      expect(succeeded).toBeGreaterThan(firstByKey.size / 2);
      expect([...okKinds].sort()).toEqual(['burn', 'give', 'mint', 'renew', 'take']);

      const after = await ledgerChecks(ctx);
      const fresh = after.entries.filter((e) => e.id > maxEntryBefore);
      const nonAdminUsers = new Set(after.users.filter((u) => u.role !== 'admin').map((u) => u.id));
      const internal = fresh.filter((e) => e.counterparty_id !== null && nonAdminUsers.has(e.counterparty_id));
      const external = fresh.filter((e) => !(e.counterparty_id !== null && nonAdminUsers.has(e.counterparty_id)));

      // Moves between users net to zero, operation by operation.
      const perOperation = new Map<string, number>();
      for (const e of internal) perOperation.set(e.operation_id, (perOperation.get(e.operation_id) ?? 0) + e.credits);
      expect([...perOperation.values()].filter((v) => v !== 0)).toEqual([]);
      // Each accepted operation wrote its entries once: duplicates moved nothing.
      expect(new Set(fresh.map((e) => e.operation_id)).size).toBe(succeeded);

      const sum = (list: typeof fresh) => list.reduce((s, e) => s + e.credits, 0);
      const mintedInLedger = sum(external.filter((e) => e.type === 'PURCHASED'));
      const burnedInLedger = -sum(external.filter((e) => e.type === 'RECOVERED' && e.account_id === null));
      const spentInLedger = -sum(external.filter((e) => e.account_id !== null));
      expect(mintedInLedger).toBe(minted);
      expect(burnedInLedger).toBe(burned);
      expect(spentInLedger).toBeGreaterThan(0);
      expect(external.every((e) => e.counterparty_id === null || e.counterparty_id === adminId)).toBe(true);
      const totalAfter = after.users.reduce((s, u) => s + u.credits, 0);
      expect(totalAfter).toBe(totalBefore + mintedInLedger - burnedInLedger - spentInLedger);
    });
  },
  { creditOpsPerMinute: 100_000 },
);
