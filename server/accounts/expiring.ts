/**
 * Live accounts expiring from now to N days ahead, per owner in the actor's subtree, counted as the
 * accounts list's expiry filter selects them: the kept counts per expiry day and month (migration
 * 0013) for the whole days and months of the window, the rows for its partial first and last day.
 */
import { type Kysely, sql } from 'kysely';
import { bucketParts, eachPart, rowsIn, signed, spansOf } from '../db/tallies';
import type { Database, UserRow } from '../db/schema';
import { ownedWithin, ownedWithinByDate } from '../http/scope';
import { addDays } from './dates';

type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

export async function expiringByOwner(db: Kysely<Database>, actor: Actor, days: number): Promise<Array<{ owner_id: number; n: number }>> {
  const now = new Date();
  const window = spansOf({ at: now.toISOString(), inclusive: true }, { at: addDays(now, days).toISOString(), inclusive: true });
  const tallies = () => db.selectFrom('account_tallies as t').where(ownedWithin(actor, 't.owner_id'));
  const [kept, rows] = await Promise.all([
    db
      .selectFrom(
        eachPart(bucketParts(window), (part) =>
          tallies()
            .where(part.where)
            .select(['t.owner_id', signed(part, 't.n').as('n')]),
        ).as('p'),
      )
      .select(['p.owner_id', sql<number>`sum(p.n)`.as('n')])
      .groupBy('p.owner_id')
      .execute(),
    db
      .selectFrom('accounts')
      .where(ownedWithinByDate(actor, 'owner_id'))
      .where('deleted_at', 'is', null)
      .where(rowsIn('expiry_date', window))
      .select(['owner_id', sql<number>`count(*)`.as('n')])
      .groupBy('owner_id')
      .execute(),
  ]);
  return [...kept, ...rows].map((r) => ({ owner_id: r.owner_id, n: Number(r.n) }));
}
