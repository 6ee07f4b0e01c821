/**
 * The auto-renew scheduler: renews accounts that expire within the next minute (or already have)
 * for their auto_renew_months, charging the account's OWNER. Several API processes may run it on one
 * PostgreSQL at once: besides the job lease, each account is claimed by a conditional UPDATE on the
 * expiry the runner saw, inside the renewal's transaction, so a due account is renewed exactly once.
 * A renewal refused for insufficient credits, or because the owner is not active (suspended,
 * inactive, deleted), is recorded (auto_renew_failed_at, auto_renew_error) and not retried until
 * the account is renewed or auto-renew is enabled again. An owner whose branch is stopped (a user
 * above it suspended or inactive, hierarchy/branch.ts) is not charged either, but nothing is recorded:
 * its accounts wait, keeping their service until they expire, and the first run after the branch is
 * active again renews them.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ACCOUNTS, plural } from '../../src/contract';
import { DomainError, fieldError } from '../errors';
import { getSystemSettings } from '../settings';
import { Provisioners } from '../provisioning';
import { blockedByAncestor, stoppedAbove } from '../hierarchy/branch';
import { renewLocked } from '../accounts/renewal';
import { recordSystemAudit } from '../accounts/systemAudit';

/** How far ahead of expiry an account is due. */
export const DUE_AHEAD_MS = 60_000;
const BATCH = 200;

export interface AutoRenewReport {
  renewed: number[];
  failed: number[];
}

/** Thrown inside a renewal whose owner's branch stopped after the account was picked: skipped, not failed. */
class BranchStopped extends Error {}

const dueConditions = (db: Kysely<Database>, now: Date) => (eb: ExpressionBuilder<Database, 'accounts'>) =>
  eb.and([
    eb.not(blockedByAncestor(db, 'accounts.owner_path', 'accounts.owner_id')(eb)),
    eb('deleted_at', 'is', null),
    eb('status', '=', 'active'),
    eb('auto_renew_months', '>', 0),
    eb('auto_renew_failed_at', 'is', null),
    eb('expiry_date', 'is not', null),
    eb('expiry_date', '<=', new Date(now.getTime() + DUE_AHEAD_MS).toISOString()),
    eb.or([eb('auto_renew_end_date', 'is', null), eb('auto_renew_end_date', '>=', now.toISOString())]),
  ]);

export async function runAutoRenew(db: Kysely<Database>, now: Date = new Date()): Promise<AutoRenewReport> {
  const report: AutoRenewReport = { renewed: [], failed: [] };
  const due = await db.selectFrom('accounts').select(['id', 'expiry_date']).where(dueConditions(db, now)).orderBy('expiry_date').orderBy('id').limit(BATCH).execute();
  const settings = await getSystemSettings(db);
  const provisioners = Provisioners.of(db);
  let unexpected: unknown = null;

  for (const { id, expiry_date: seenExpiry } of due) {
    try {
      const outcome = await provisioners.outcome('auto_renew', null);
      const renewed = await outcome.transact(async (trx) => {
        // The claim: only one runner's UPDATE matches the expiry it saw; the others wait on the row
        // lock, then find the expiry moved and skip the account.
        const claimed = await trx
          .updateTable('accounts')
          .set({ updated_at: now.toISOString() })
          .where('id', '=', id)
          .where('expiry_date', '=', seenExpiry)
          .where(dueConditions(db, now))
          .returningAll()
          .executeTakeFirst();
        if (!claimed) return false;
        const owner = await trx.selectFrom('users').select(['id', 'role', 'username', 'status']).where('id', '=', claimed.owner_id).executeTakeFirstOrThrow();
        // Read with the owner's row locked, so a suspension above either waits for this renewal or is seen.
        const stopped = await stoppedAbove(trx, owner.id);
        // A suspended, inactive or deleted owner is not charged; recorded like an unaffordable renewal.
        if (owner.status !== 'active' || stopped.some((u) => u.id === owner.id)) throw fieldError('owner', ACCOUNTS.autoRenewOwnerInactive);
        if (stopped.length > 0) throw new BranchStopped();
        const months = claimed.auto_renew_months!;
        const { result } = await renewLocked(trx, claimed, months, owner, { actorId: null, now, auto: true, settings });
        // A middleware that cannot be reached fails the renewal (nothing charged); it is tried again next run.
        outcome.mirror([claimed.id]);
        await recordSystemAudit(trx, {
          module: 'accounts',
          action: 'auto_renew',
          entityId: claimed.id,
          targetUsername: owner.username,
          description: `Auto-renewal of ${claimed.login} for ${plural(months, 'month')}, ${plural(result.credits, 'credit')} charged to ${owner.username}`,
          oldValues: { expiry_date: claimed.expiry_date },
          newValues: { expiry_date: result.coverage_end, credits: result.credits, transaction_number: result.transaction_number },
        });
        return true;
      });
      if (renewed) report.renewed.push(id);
    } catch (error) {
      if (error instanceof BranchStopped) continue;
      // Another runner holds the account's middleware change (409): it is that runner's to renew.
      if (error instanceof DomainError && error.kind === 'conflict') continue;
      if (!(error instanceof DomainError) || error.kind !== 'invalid') {
        // One broken account must not hold up the others; the job reports the error after the batch.
        unexpected ??= error;
        continue;
      }
      const reason = Object.values(error.errors ?? {}).flat()[0] ?? error.message;
      const failedAt = now.toISOString();
      // Recorded once: a second runner that failed on the same account finds it already marked.
      const marked = await db
        .updateTable('accounts')
        .set({ auto_renew_failed_at: failedAt, auto_renew_error: reason })
        .where('id', '=', id)
        .where('expiry_date', '=', seenExpiry)
        .where('auto_renew_failed_at', 'is', null)
        .returning(['id', 'login', 'owner_id'])
        .executeTakeFirst();
      if (marked) {
        report.failed.push(id);
        await recordSystemAudit(db, {
          module: 'accounts',
          action: 'auto_renew_failed',
          entityId: id,
          description: `Auto-renewal of ${marked.login} failed: ${reason}`,
          newValues: { auto_renew_failed_at: failedAt, auto_renew_error: reason },
        });
      }
    }
  }
  if (unexpected) throw unexpected;
  return report;
}
