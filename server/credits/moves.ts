/**
 * Credit moves between users (decisions file, ledger):
 * - admin holds nothing: adding mints (PURCHASED on the recipient), recovering burns (RECOVERED);
 * - anyone else gives PAID credits to a direct child (giver USED, receiver PURCHASED) and recovers
 *   paid credits from it (child RECOVERED -, parent RECOVERED +);
 * - bonus credits are their own PURCHASED entry minted by the system and never move between users;
 *   they are earned by credits that stay bought: a recovery that reaches an allocation takes back
 *   the whole bonus it earned (credits/bonusBack.ts).
 * The rows of both sides are locked in id order first, then checked, then posted through postChanges.
 * A recovery also records which allocations of the child it took back (credits/allocations.ts) and
 * which of their bonus (credits/bonusBack.ts).
 */
import { checkCreditCap } from '../hierarchy/caps';
import { type Kysely, type Transaction } from 'kysely';
import { CREDITS, type CreditAmountRules, HIERARCHY, MANAGER_ALLOCATION_MAX, creditAmountIssue } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import { prepared } from '../db/prepared';
import type { Database, UserRow } from '../db/schema';
import { DomainError, fieldError, notFound } from '../errors';
import { type BalanceChange, InsufficientBalance, type PostedEntry, postChanges } from '../ledger/post';
import type { SystemSettings } from '../settings';
import { nowIso } from '../db/values';
import { linkRecovery, planRecovery } from './allocations';
import { type Bonus, bonusFor } from './bonus';
import { bonusBack, recordBonus, recordBonusBack, recoveryLimit } from './bonusBack';
import { DELETED } from '../hierarchy/members';
import { allocationRules, paidOf, recoveryRules } from './options';
import { creditsReceived } from '../notifications/events';

export { paidOf };

type Trx = Transaction<Database>;

/**
 * Refuses an `amount` its rules refuse (the panel checks the field with the same rule and message
 * the API answers 422 with): the rule's message on `credits`, as the panel shows it under the field;
 * when it is the balance that falls short, `shortfall` on `paid_credits` too (the panel's toast; a
 * debit never takes a balance below zero).
 */
function checkAmount(amount: number, rules: CreditAmountRules, shortfall?: string): void {
  const issue = creditAmountIssue(amount, rules);
  if (!issue) return;
  // creditAmountIssue checks the minimum before the balance: past it, the issue is the balance's.
  const short = shortfall !== undefined && rules.balance !== undefined && amount > rules.balance && amount >= Math.max(1, rules.min);
  throw new DomainError('invalid', issue, { credits: [issue], ...(short ? { paid_credits: [shortfall] } : {}) });
}

/**
 * The given users, read and on PostgreSQL row-locked in ascending id order (FOR NO KEY UPDATE: it
 * blocks other balance changes but not the key-share locks of foreign keys). The admin holds no
 * balance (it mints and burns), so its row is read, not locked: otherwise every admin move in the
 * panel waits for the one before it to commit. One statement for both. On SQLite the transaction
 * already holds the write lock.
 */
function usersLocked(db: Kysely<Database>, ids: number[]) {
  const users = () => db.selectFrom('users').selectAll().where('id', 'in', ids);
  if (!isPostgres(db)) return users().orderBy('id');
  return db
    .with('locked', () => users().where('role', '!=', 'admin').orderBy('id').forNoKeyUpdate())
    .selectFrom('locked')
    .selectAll()
    .unionAll(users().where('role', '=', 'admin'));
}

// A move's two users, the usual case, as a statement compiled once.
const lockPair = prepared((db, first: number, second: number) => usersLocked(db, [first, second]));

/** Reads (and on PostgreSQL row-locks, in ascending id order) the given users. */
export async function lockUsers(trx: Trx, ids: number[]): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const rows = unique.length === 2 ? await lockPair(trx, unique[0], unique[1]) : await usersLocked(trx, unique).execute();
  return new Map(rows.map((r) => [r.id, r as UserRow]));
}

export interface MoveResult {
  entries: PostedEntry[];
  /** The amount moved and the bonus minted (or removed) with it. */
  credits: number;
  bonus: number;
  target: UserRow;
  actor: UserRow;
}

/**
 * Posts the changes and answers both rows as the entries left them: the rows were read locked, and
 * the entries are the only change a balance gets (migration 0006 sets updated_at to the entry's time),
 * so reading them again would only repeat what the entries say.
 */
async function post(trx: Trx, changes: BalanceChange[], actor: UserRow, target: UserRow, onShort: (e: InsufficientBalance) => Error) {
  const createdAt = nowIso();
  let entries: PostedEntry[];
  try {
    entries = await postChanges(trx, changes, { actorId: actor.id, kind: 'credit_move', createdAt });
  } catch (error) {
    if (error instanceof InsufficientBalance) throw onShort(error);
    throw error;
  }
  const after = (row: UserRow): UserRow => {
    const own = entries.filter((e) => e.user_id === row.id);
    if (own.length === 0) return row;
    return {
      ...row,
      credits: own[own.length - 1].balance_after,
      bonus_credits: row.bonus_credits + own.reduce((sum, e) => sum + e.bonus_credits, 0),
      updated_at: createdAt,
    };
  };
  return { entries, actor: after(actor), target: after(target) };
}

export interface GiveOptions {
  /** 'add': the Add Credits call; 'create': the initial credits of a user being created. */
  purpose: 'add' | 'create';
  /** The bonus the client showed; a different server bonus is refused. */
  bonusClaim?: number | null;
  /** The system settings the request found (minimum credit limit, promo switches). */
  settings: SystemSettings;
  /** The bonus, when the caller worked it out before the transaction (it reads no locked state). */
  bonus?: Bonus;
}

/** Adds `amount` paid credits (plus any bonus) to `targetId`: minted by admin, else moved from the actor. */
export async function giveCredits(trx: Trx, actorId: number, targetId: number, amount: number, options: GiveOptions): Promise<MoveResult> {
  const locked = await lockUsers(trx, [actorId, targetId]);
  const actor = locked.get(actorId);
  const target = locked.get(targetId);
  if (!actor || !target || target.status === DELETED) throw notFound();
  const admin = actor.role === 'admin';

  // Initial credits of a user being created follow the Add Credits rules, except that the creator
  // chose its status: a non-admin gives only to its direct child (named under the form's credits field).
  if (options.purpose === 'add' && target.status !== 'active') throw fieldError('recipient', CREDITS.recipient);
  if (!admin && target.parent_id !== actor.id) {
    throw options.purpose === 'add' ? fieldError('recipient', CREDITS.recipient) : fieldError('credits', HIERARCHY.initialCreditsDirectChildOnly);
  }
  // The amount is one the allocation options offer or one within their rules, against the giver's
  // balance as locked; admin's to a manager has the allocation cap besides.
  checkAmount(amount, await allocationRules(trx, actor, options.settings), options.purpose === 'add' ? CREDITS.paidCredits : undefined);
  if (admin && target.role === 'manager' && amount > MANAGER_ALLOCATION_MAX) {
    throw fieldError('credits', CREDITS.adminAllocationCap);
  }

  if (!admin) await checkCreditCap(trx, actor, amount, options.purpose === 'add' ? 'paid_credits' : 'credits');

  const bonus = options.bonus ?? (await bonusFor(trx, actor, target, amount, options.settings));
  if (options.bonusClaim !== undefined && options.bonusClaim !== null && options.bonusClaim !== bonus.bonus) {
    throw fieldError('promo_credits', CREDITS.promoCredits);
  }

  const short = (available: number) =>
    options.purpose === 'add' ? fieldError('paid_credits', CREDITS.paidCredits) : fieldError('credits', CREDITS.insufficientCredits(amount, available));

  const changes: BalanceChange[] = [];
  if (!admin) {
    changes.push({ userId: actor.id, type: 'USED', credits: -amount, counterpartyId: target.id, remarks: `Credits added to ${target.username}` });
  }
  changes.push({ userId: target.id, type: 'PURCHASED', credits: amount, counterpartyId: actor.id, remarks: `Credits from ${actor.username}` });
  if (bonus.bonus > 0) {
    changes.push({ userId: target.id, type: 'PURCHASED', credits: bonus.bonus, bonusCredits: bonus.bonus, counterpartyId: null, remarks: bonus.remarks });
  }
  const posted = await post(trx, changes, actor, target, (e) => short(e.available));
  if (bonus.bonus > 0) {
    // The target's entries come in the order of the changes: the allocation, then its bonus.
    const [allocation, granted] = posted.entries.filter((e) => e.user_id === target.id);
    await recordBonus(trx, allocation.id, granted.id, bonus.bonus, bonus);
  }
  if (options.purpose === 'add') {
    // In the move's transaction: the member is told of exactly the credits that arrived.
    const received = posted.entries.find((e) => e.user_id === target.id)!;
    await creditsReceived(trx, { entryId: received.id, recipientId: target.id, credits: amount + bonus.bonus, from: actor.username });
  }
  return { ...posted, credits: amount, bonus: bonus.bonus };
}

export interface RecoverOptions {
  /** Remarks of the child's RECOVERED entry (recover-from-history names the allocation). */
  remarks?: string;
  /** The allocation this recovery takes back (recover-from-history); else the newest ones. */
  allocationId?: number;
}

/** Takes `amount` paid credits back from `targetId`: burned by admin, else returned to the actor. */
export async function recoverCredits(trx: Trx, actorId: number, targetId: number, amount: number, options: RecoverOptions = {}): Promise<MoveResult> {
  const locked = await lockUsers(trx, [actorId, targetId]);
  const actor = locked.get(actorId);
  const target = locked.get(targetId);
  if (!actor || !target || target.status === DELETED) throw notFound();
  const admin = actor.role === 'admin';
  if (!admin && target.parent_id !== actor.id) throw fieldError('recipient', CREDITS.recipient);

  const paid = paidOf(target);
  const short = (available: number) => fieldError('paid_credits', CREDITS.cannotRecover(available));
  // The bonus the reached allocations earned comes back with them; what was spent of it, from the
  // paid credits, which must cover it on top of the amount.
  const takes = amount > 0 && amount <= paid ? await planRecovery(trx, target.id, amount, options.allocationId) : null;
  const back = takes && bonusBack(takes, target.bonus_credits);
  if (!takes || !back || amount + back.charged > paid) {
    // Past what can be recovered (recoveryLimit: the amounts that fit run from 0 to it).
    const limit = await recoveryLimit(trx, target, options.allocationId);
    const detail = back && back.charged > 0 ? CREDITS.cannotRecoverSpentBonus(limit, back.charged) : CREDITS.cannotRecover(limit);
    // A typed amount (not recover-from-history, which takes what its allocation can give) meets the
    // Recover dialog's rule and message.
    if (options.allocationId === undefined) checkAmount(amount, recoveryRules(limit), detail);
    throw fieldError('paid_credits', detail);
  }

  const changes: BalanceChange[] = [
    {
      userId: target.id,
      type: 'RECOVERED',
      credits: -amount,
      counterpartyId: actor.id,
      remarks: options.remarks ?? `Credits recovered by ${actor.username}`,
    },
  ];
  if (!admin) {
    changes.push({ userId: actor.id, type: 'RECOVERED', credits: amount, counterpartyId: target.id, remarks: `Credits recovered from ${target.username}` });
  }
  if (back.fromBonus > 0) {
    changes.push({
      userId: target.id,
      type: 'RECOVERED',
      credits: -back.fromBonus,
      bonusCredits: -back.fromBonus,
      counterpartyId: null,
      remarks: CREDITS.bonusTakenBack,
    });
  }
  if (back.charged > 0) {
    changes.push({ userId: target.id, type: 'RECOVERED', credits: -back.charged, counterpartyId: null, remarks: CREDITS.spentBonusCharged });
  }
  const posted = await post(trx, changes, actor, target, (e) => short(e.available));
  // The target's entries come in the order of the changes: the credits, the bonus, the spent bonus.
  const own = posted.entries.filter((e) => e.user_id === target.id);
  const [taken] = own;
  const bonusEntry = back.fromBonus > 0 ? own[1] : undefined;
  const chargeEntry = back.charged > 0 ? own[own.length - 1] : undefined;
  await linkRecovery(trx, taken.id, takes);
  await recordBonusBack(trx, back, bonusEntry?.id ?? null, chargeEntry?.id ?? null);
  return { ...posted, credits: amount, bonus: back.owed };
}
