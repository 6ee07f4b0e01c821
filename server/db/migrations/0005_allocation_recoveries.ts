import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Which allocation (a paid PURCHASED entry from another user) each recovery took credits back from,
 * so the recovery history can show what is left of every allocation. A recovery that spans several
 * allocations has one row per allocation. The ledger itself stays append-only and unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('allocation_recoveries')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('allocation_id', 'integer', (c) => c.notNull().references('credit_transactions.id'))
    .addColumn('recovery_id', 'integer', (c) => c.notNull().references('credit_transactions.id'))
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('allocation_recoveries_credits_positive', sql`credits > 0`)
    .execute();
  await db.schema.createIndex('allocation_recoveries_allocation_idx').on('allocation_recoveries').column('allocation_id').execute();
  await db.schema.createIndex('allocation_recoveries_recovery_idx').on('allocation_recoveries').column('recovery_id').execute();
  await backfill(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('allocation_recoveries').execute();
}

interface Entry {
  id: number;
  transaction_number: string;
  user_id: number;
  type: string;
  credits: number;
  remarks: string | null;
  created_at: string;
}

/**
 * Links the recoveries already in the ledger, with the rule the API applies from now on: a
 * recovery from history ('Recovery of <transaction number>') takes back that allocation; any other
 * takes back the newest allocations first.
 */
async function backfill(db: Kysely<any>): Promise<void> {
  const entries: Entry[] = await db
    .selectFrom('credit_transactions')
    .select(['id', 'transaction_number', 'user_id', 'type', 'credits', 'remarks', 'created_at'])
    .where('counterparty_id', 'is not', null)
    .where('bonus_credits', '=', 0)
    .where((eb: any) => eb.or([eb.and([eb('type', '=', 'PURCHASED'), eb('credits', '>', 0)]), eb.and([eb('type', '=', 'RECOVERED'), eb('credits', '<', 0)])]))
    .orderBy('user_id')
    .orderBy('id')
    .execute();
  const links: Array<{ allocation_id: number; recovery_id: number; credits: number; created_at: string }> = [];
  let open: Array<{ id: number; number: string; left: number }> = [];
  let user: number | null = null;
  for (const e of entries) {
    if (e.user_id !== user) {
      user = e.user_id;
      open = [];
    }
    if (e.type === 'PURCHASED') {
      open.push({ id: e.id, number: e.transaction_number, left: e.credits });
      continue;
    }
    let amount = -e.credits;
    const named = e.remarks?.startsWith('Recovery of ') ? open.find((a) => a.number === e.remarks!.slice('Recovery of '.length)) : undefined;
    const order = named ? [named] : [...open].reverse();
    for (const allocation of order) {
      if (amount <= 0) break;
      const take = Math.min(allocation.left, amount);
      if (take <= 0) continue;
      allocation.left -= take;
      amount -= take;
      links.push({ allocation_id: allocation.id, recovery_id: e.id, credits: take, created_at: e.created_at });
    }
  }
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insertInto('allocation_recoveries')
      .values(links.slice(i, i + 500))
      .execute();
  }
}
