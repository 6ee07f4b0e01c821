/**
 * Posting several changes in one call (server/ledger/post.ts; on PostgreSQL one statement for all the
 * users, applied by migration 0014's trigger): the entries chain in order, each step is held to the
 * balance rules, and a call that breaks them at any step, for any of its users, writes nothing.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { MAX_BALANCE } from '../../src/contract';
import { inTransaction } from '../../server/db/transaction';
import { operationProblems } from '../../server/ledger/check';
import { BalanceCapExceeded, type BalanceChange, InsufficientBalance, postChanges } from '../../server/ledger/post';
import { describeEachDatabase } from './harness';
import { balance, createBranch } from './hierarchyFixtures';

describeEachDatabase('posting several changes in one call', (ctx) => {
  const post = (changes: BalanceChange[]) => inTransaction(ctx.db.kysely, (trx) => postChanges(trx, changes, { actorId: null }));
  const entries = (userId: number) => ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const state = async (userId: number) => ({ balance: await balance(ctx, userId), entries: (await entries(userId)).length });

  it('chains the entries in order and applies them all, mixed with other users', async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50, dealer: 20 });
    const start = await balance(ctx, dealer.id);
    const steps: BalanceChange[] = Array.from({ length: 30 }, (_, i) => ({
      userId: dealer.id,
      type: i % 3 === 0 ? 'PURCHASED' : 'USED',
      credits: i % 3 === 0 ? 2 : -1,
      bonusCredits: i % 3 === 0 ? 1 : 0,
      remarks: `step ${i}`,
    }));
    const posted = await post([...steps, { userId: reseller.id, type: 'USED', credits: -5 }]);
    // In ascending user id, each user's changes in the order given.
    expect(posted.map((e) => e.user_id)).toEqual([reseller.id, ...steps.map(() => dealer.id)]);
    const own = (await entries(dealer.id)).slice(-steps.length);
    expect(own.map((e) => e.remarks)).toEqual(steps.map((s) => s.remarks));
    own.reduce((before, e) => {
      expect(e.balance_before).toBe(before);
      return e.balance_after;
    }, start.credits);
    expect(posted.filter((e) => e.user_id === dealer.id).map((e) => e.id)).toEqual(own.map((e) => e.id));
    expect(await balance(ctx, dealer.id)).toEqual({ credits: start.credits + 10 * 2 - 20, bonus_credits: start.bonus_credits + 10 });
    const user = await ctx.db.kysely.selectFrom('users').select('ledger_entry_id').where('id', '=', dealer.id).executeTakeFirstOrThrow();
    expect(user.ledger_entry_id).toBe(own.at(-1)!.id);
  });

  it('refuses the whole call when any step would overdraw, even if a later one makes up for it', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    const before = await state(dealer.id);
    const error = await post([
      { userId: dealer.id, type: 'USED', credits: -(before.balance.credits - 1) },
      { userId: dealer.id, type: 'USED', credits: -2 },
      { userId: dealer.id, type: 'PURCHASED', credits: 10 },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalance);
    expect(await state(dealer.id)).toEqual(before);
  });

  it('refuses the whole call when a step would spend bonus credits the user does not hold', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    const before = await state(dealer.id);
    const error = await post([
      { userId: dealer.id, type: 'PURCHASED', credits: 1, bonusCredits: 1 },
      { userId: dealer.id, type: 'USED', credits: -1, bonusCredits: -(before.balance.bonus_credits + 2) },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalance);
    expect((error as InsufficientBalance).kind).toBe('bonus');
    expect(await state(dealer.id)).toEqual(before);
  });

  it('refuses the whole call when a step would cross the balance cap, even if a later one spends it', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    const before = await state(dealer.id);
    const error = await post([
      { userId: dealer.id, type: 'PURCHASED', credits: MAX_BALANCE - before.balance.credits },
      { userId: dealer.id, type: 'PURCHASED', credits: 1 },
      { userId: dealer.id, type: 'USED', credits: -10 },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BalanceCapExceeded);
    expect(await state(dealer.id)).toEqual(before);
  });

  it('names the user that is short when a call for several users is refused, and writes nothing for any of them', async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50, dealer: 10 });
    const before = { reseller: await state(reseller.id), dealer: await state(dealer.id) };
    // A move from the dealer back up: the reseller (lower id) gains, the dealer cannot pay.
    const error = await post([
      { userId: dealer.id, type: 'RECOVERED', credits: -(before.dealer.balance.credits + 1), counterpartyId: reseller.id },
      { userId: reseller.id, type: 'RECOVERED', credits: before.dealer.balance.credits + 1, counterpartyId: dealer.id },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalance);
    expect((error as InsufficientBalance).userId).toBe(dealer.id);
    expect((error as InsufficientBalance).available).toBe(before.dealer.balance.credits);
    expect({ reseller: await state(reseller.id), dealer: await state(dealer.id) }).toEqual(before);
  });

  it("records one operation per call, of its caller's kind, with its count, in the call's transaction, whatever the number of statements", async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 3000, dealer: 2500 });
    // 2,400 changes: three statements on PostgreSQL (1,000 per statement), each naming the one operation.
    const changes: BalanceChange[] = Array.from({ length: 2400 }, () => ({ userId: dealer.id, type: 'USED', credits: -1 }));
    const posted = await inTransaction(ctx.db.kysely, (trx) => postChanges(trx, changes, { actorId: reseller.id, kind: 'bulk_renew' }));
    const ids = posted.map((e) => e.id);
    const named = await ctx.db.kysely
      .selectFrom('credit_transactions')
      .select('operation_id')
      .distinct()
      .where('id', '>=', Math.min(...ids))
      .where('id', '<=', Math.max(...ids))
      .where('user_id', '=', dealer.id)
      .execute();
    expect(named).toHaveLength(1);
    const operation = await ctx.db.kysely.selectFrom('ledger_operations').selectAll().where('id', '=', named[0].operation_id).executeTakeFirstOrThrow();
    expect(operation).toMatchObject({ kind: 'bulk_renew', actor_id: reseller.id, entries: 2400 });
    // A refused call leaves no operation behind: it is part of the call's transaction.
    const count = async () =>
      Number(
        (
          await ctx.db.kysely
            .selectFrom('ledger_operations')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(post([{ userId: dealer.id, type: 'USED', credits: -1_000_000 }])).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await count()).toBe(before);
    expect(await operationProblems(ctx.db.kysely)).toEqual([]);
  });
});
