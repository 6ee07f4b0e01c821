import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * A promotion's bonus is earned by credits that stay bought (docs/reliability.md, "Promotion
 * bonuses"). Two tables tie each bonus to the allocation that earned it:
 * - allocation_bonuses: the bonus entry minted with an allocation, and the promotion behind it (a
 *   user promo's id, or the credit levels);
 * - bonus_recoveries: what a recovery took back of that bonus, from the bonus balance or, for bonus
 *   already spent, from the paid balance (the entry that did it).
 * The ledger itself stays append-only and unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('allocation_bonuses')
    .addColumn('allocation_id', 'integer', (c) => c.primaryKey().references('credit_transactions.id'))
    .addColumn('bonus_id', 'integer', (c) => c.notNull().unique().references('credit_transactions.id'))
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // No foreign key: a promo may be deleted, its grants stay reported under its id.
    .addColumn('promo_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('allocation_bonuses_credits_positive', sql`credits > 0`)
    .addCheckConstraint('allocation_bonuses_source_valid', sql`source in ('promo', 'level', 'unknown')`)
    .execute();
  await db.schema
    .createTable('bonus_recoveries')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('allocation_id', 'integer', (c) => c.notNull().references('allocation_bonuses.allocation_id'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('credit_transactions.id'))
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('bonus_recoveries_credits_positive', sql`credits > 0`)
    .execute();
  await db.schema.createIndex('bonus_recoveries_allocation_idx').on('bonus_recoveries').column('allocation_id').execute();
  await backfill(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bonus_recoveries').execute();
  await db.schema.dropTable('allocation_bonuses').execute();
}

interface Entry {
  id: number;
  user_id: number;
  type: string;
  credits: number;
  bonus_credits: number;
  counterparty_id: number | null;
  operation_id: string;
  remarks: string | null;
  created_at: string;
}

/**
 * Ties the bonus entries already in the ledger to their allocations (the paid entry of the same
 * operation and user), naming the promo by the entry's remarks where one promo has that name. Bonus
 * write-offs (the earlier rule's "no paid credits left") and spent bonus paid back are counted as
 * taken back from the bonuses of the allocations recoveries had reached by then, newest first: that
 * is what they stood for, and how recoveries attribute them from now on.
 */
async function backfill(db: Kysely<any>): Promise<void> {
  const entries: Entry[] = await db
    .selectFrom('credit_transactions')
    .select(['id', 'user_id', 'type', 'credits', 'bonus_credits', 'counterparty_id', 'operation_id', 'remarks', 'created_at'])
    .where((eb: any) =>
      eb.or([
        eb.and([eb('type', '=', 'PURCHASED'), eb('credits', '>', 0)]),
        // Bonus taken back: from the bonus balance, or (spent bonus) from the paid one.
        eb.and([eb('type', '=', 'RECOVERED'), eb('counterparty_id', 'is', null), eb('account_id', 'is', null), eb('credits', '<', 0)]),
      ]),
    )
    .orderBy('user_id')
    .orderBy('id')
    .execute();
  if (entries.length === 0) return;
  const promos: Array<{ id: number; name: string }> = await db.selectFrom('user_promos').select(['id', 'name']).execute();
  const links: Array<{ allocation_id: number; recovery_id: number }> = await db.selectFrom('allocation_recoveries').select(['allocation_id', 'recovery_id']).execute();
  const touchedAt = new Map<number, number>();
  for (const l of links) touchedAt.set(l.allocation_id, Math.min(touchedAt.get(l.allocation_id) ?? Infinity, l.recovery_id));

  const bonuses: Array<{ allocation_id: number; bonus_id: number; credits: number; source: string; promo_id: number | null; created_at: string }> = [];
  const taken: Array<{ allocation_id: number; entry_id: number; credits: number; created_at: string }> = [];
  const byUser = new Map<number, Entry[]>();
  for (const e of entries) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e]);
  for (const own of byUser.values()) {
    const paid = new Map<string, Entry>();
    const open: Array<{ allocation_id: number; left: number }> = [];
    for (const e of own) {
      if (e.type === 'PURCHASED' && e.counterparty_id !== null && e.bonus_credits === 0) {
        paid.set(e.operation_id, e);
      } else if (e.type === 'PURCHASED' && e.counterparty_id === null && e.bonus_credits > 0) {
        const allocation = paid.get(e.operation_id);
        if (!allocation) continue;
        const promoName = e.remarks?.startsWith('Promo bonus: ') ? e.remarks.slice('Promo bonus: '.length) : null;
        const named = promoName === null ? [] : promos.filter((p) => p.name === promoName);
        const source = e.remarks?.startsWith('Credit level bonus') ? 'level' : promoName !== null ? 'promo' : 'unknown';
        bonuses.push({
          allocation_id: allocation.id,
          bonus_id: e.id,
          credits: e.bonus_credits,
          source,
          promo_id: named.length === 1 ? named[0].id : null,
          created_at: e.created_at,
        });
        open.push({ allocation_id: allocation.id, left: e.bonus_credits });
      } else if (e.type === 'RECOVERED') {
        let amount = -e.credits;
        for (const bonus of [...open].reverse()) {
          if (amount <= 0) break;
          const touched = touchedAt.get(bonus.allocation_id);
          if (touched === undefined || touched > e.id || bonus.left <= 0) continue;
          const take = Math.min(bonus.left, amount);
          bonus.left -= take;
          amount -= take;
          taken.push({ allocation_id: bonus.allocation_id, entry_id: e.id, credits: take, created_at: e.created_at });
        }
      }
    }
  }
  for (let i = 0; i < bonuses.length; i += 500)
    await db
      .insertInto('allocation_bonuses')
      .values(bonuses.slice(i, i + 500))
      .execute();
  for (let i = 0; i < taken.length; i += 500)
    await db
      .insertInto('bonus_recoveries')
      .values(taken.slice(i, i + 500))
      .execute();
}
