/**
 * Reconciliation of a server's middleware with the panel (`npm run cli -- reconcile --server ID`):
 * the differences between the panel's live accounts on the server and the middleware's subscribers,
 * and, with --apply, the repairs that make the middleware match the panel (the panel is the source
 * of truth: it holds the ledger). Each repair is audited. Accounts with a middleware change in
 * flight (a journal claim) are left to the journal and reported as such.
 *
 * A subscriber no live account stands for is removed only with --remove-orphans: a server just
 * added to the panel holds the operator's existing subscribers, which are meant to be adopted
 * (import-subscribers), not deleted.
 */
import type { Kysely } from 'kysely';
import { formatMac } from '../../src/contract';
import { recordSystemAudit } from '../accounts/systemAudit';
import type { Database } from '../db/schema';
import type { Provisioners } from './index';
import type { MiddlewareSubscriber, MirroredAccount } from './types';

export class ReconcileRefused extends Error {}

export type Difference =
  | { kind: 'missing'; account: MirroredAccount }
  | { kind: 'differs'; account: MirroredAccount; subscriber: MiddlewareSubscriber; fields: string[] }
  | { kind: 'orphan'; subscriber: MiddlewareSubscriber }
  | { kind: 'in_flight'; account: MirroredAccount };

export interface ReconcilePlan {
  server: { id: number; name: string };
  accounts: number;
  subscribers: number;
  differences: Difference[];
}

const seconds = (iso: string | null) => (iso ? Math.floor(new Date(iso).getTime() / 1000) : null);

/** The fields of a subscriber that do not say what the account says. */
function differingFields(account: MirroredAccount, subscriber: MiddlewareSubscriber): string[] {
  const fields: string[] = [];
  if (subscriber.login !== account.login) fields.push('login');
  if (subscriber.full_name !== account.full_name) fields.push('full_name');
  if ((subscriber.mac_address ?? '').toUpperCase() !== formatMac(account.mac_address)) fields.push('mac_address');
  if (subscriber.enabled !== (account.status === 'active')) fields.push('status');
  // An account without an expiry is written as "expired now": any past date in the middleware agrees.
  const expiry = seconds(account.expiry_date);
  const held = seconds(subscriber.expiry_date);
  if (expiry === null ? held !== null && held > Date.now() / 1000 : held !== expiry) fields.push('expiry_date');
  return fields;
}

export async function planReconcile(db: Kysely<Database>, provisioners: Provisioners, serverId: number): Promise<ReconcilePlan> {
  const server = await db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirst();
  if (!server) throw new ReconcileRefused(`No server with id ${serverId}.`);
  if (server.driver === 'local') throw new ReconcileRefused(`Server ${server.name} has the local driver: there is no middleware database to reconcile.`);
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'middleware_id', 'login', 'full_name', 'pwd_txt', 'mac_address', 'status', 'expiry_date'])
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const subscribers = await (await provisioners.forRow(server)).subscribers();
  const claimed = new Set(
    (await db.selectFrom('middleware_claims').select('claim').where('claim', 'like', 'account:%').execute()).map((c) => Number(c.claim.slice('account:'.length))),
  );
  const byId = new Map(subscribers.map((s) => [s.id, s]));
  const byMac = new Map(subscribers.map((s) => [(s.mac_address ?? '').toUpperCase(), s]));
  const matched = new Set<number>();
  const differences: Difference[] = [];
  for (const account of accounts) {
    const subscriber = (account.middleware_id ? byId.get(account.middleware_id) : undefined) ?? byMac.get(formatMac(account.mac_address));
    if (subscriber) matched.add(subscriber.id);
    if (claimed.has(account.id)) {
      differences.push({ kind: 'in_flight', account });
      continue;
    }
    if (!subscriber) differences.push({ kind: 'missing', account });
    else {
      const fields = differingFields(account, subscriber);
      if (fields.length) differences.push({ kind: 'differs', account, subscriber, fields });
    }
  }
  for (const subscriber of subscribers) if (!matched.has(subscriber.id)) differences.push({ kind: 'orphan', subscriber });
  return { server: { id: server.id, name: server.name }, accounts: accounts.length, subscribers: subscribers.length, differences };
}

/** One line per difference, as the command prints it. */
export function describeDifference(d: Difference): string {
  switch (d.kind) {
    case 'missing':
      return `missing   account #${d.account.id} ${d.account.login} (${formatMac(d.account.mac_address)}): no subscriber`;
    case 'differs':
      return `differs   account #${d.account.id} ${d.account.login} <> subscriber #${d.subscriber.id}: ${d.fields.join(', ')}`;
    case 'orphan':
      return `orphan    subscriber #${d.subscriber.id} ${d.subscriber.login || '-'} (${d.subscriber.mac_address ?? '-'}): no live account`;
    case 'in_flight':
      return `in flight account #${d.account.id} ${d.account.login}: a change is being applied; left to the journal`;
  }
}

/** Makes the middleware match the panel for each difference; answers how many were repaired. */
export async function applyReconcile(db: Kysely<Database>, provisioners: Provisioners, plan: ReconcilePlan, options: { removeOrphans: boolean }): Promise<number> {
  const provisioner = await provisioners.forServer(plan.server.id);
  let repaired = 0;
  for (const d of plan.differences) {
    if (d.kind === 'missing' || d.kind === 'differs') {
      const { ids } = await provisioner.push([d.account]);
      const subscriberId = ids.get(d.account.id);
      if (subscriberId !== undefined && subscriberId !== d.account.middleware_id) {
        await db.updateTable('accounts').set({ middleware_id: subscriberId }).where('id', '=', d.account.id).execute();
      }
      await recordSystemAudit(db, {
        module: 'servers',
        action: 'reconcile',
        entityId: plan.server.id,
        targetUsername: d.account.login,
        description:
          d.kind === 'missing'
            ? `Reconciliation of ${plan.server.name}: subscriber of account ${d.account.login} created`
            : `Reconciliation of ${plan.server.name}: subscriber of account ${d.account.login} set as the panel has it (${d.fields.join(', ')})`,
        oldValues: d.kind === 'differs' ? d.subscriber : null,
        newValues: {
          account_id: d.account.id,
          login: d.account.login,
          mac_address: d.account.mac_address,
          status: d.account.status,
          expiry_date: d.account.expiry_date,
          subscriber_id: subscriberId ?? null,
        },
      });
      repaired += 1;
    } else if (d.kind === 'orphan' && options.removeOrphans) {
      const { subscriber } = d;
      await provisioner.remove({
        id: 0,
        middleware_id: subscriber.id,
        login: subscriber.login,
        full_name: subscriber.full_name,
        pwd_txt: '',
        mac_address: subscriber.mac_address ?? '',
        status: 'inactive',
        expiry_date: subscriber.expiry_date,
      });
      await recordSystemAudit(db, {
        module: 'servers',
        action: 'reconcile',
        entityId: plan.server.id,
        targetUsername: subscriber.login || null,
        description: `Reconciliation of ${plan.server.name}: subscriber #${subscriber.id} without a live account removed`,
        oldValues: subscriber,
      });
      repaired += 1;
    }
  }
  return repaired;
}
