/**
 * Moving an operator onto the panel: the subscribers a server's middleware holds that no account of
 * the panel stands for are adopted as accounts of one dealer (`npm run cli -- import-subscribers`).
 * Adoption moves no credits: the months were sold outside the panel, so no ledger entry is written.
 * Ministra keeps only a hash of the device password, so an adopted account has none in the panel
 * until someone sets one (and the subscriber's own password stays as it is until then).
 */
import type { Kysely } from 'kysely';
import { normalizeMac } from '../../src/contract';
import { newAccountRow } from '../accounts/store';
import { recordSystemAudit } from '../accounts/systemAudit';
import type { Database } from '../db/schema';
import { branchServerId } from '../hierarchy/branch';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import type { Provisioners } from './index';
import type { MiddlewareSubscriber } from './types';

const LOGIN = /^[A-Za-z0-9._@-]{1,100}$/;

export interface ImportCandidate {
  subscriber: MiddlewareSubscriber;
  /** The account it becomes. */
  login: string;
  mac: string;
}

export interface ImportPlan {
  server: { id: number; name: string };
  dealer: { id: number; username: string; path: string };
  adopt: ImportCandidate[];
  skipped: Array<{ subscriber: MiddlewareSubscriber; reason: string }>;
}

export class ImportRefused extends Error {}

/** What an import would do; throws ImportRefused when the server or dealer cannot take part. */
export async function planImport(db: Kysely<Database>, provisioners: Provisioners, serverId: number, dealerId: number): Promise<ImportPlan> {
  const server = await db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirst();
  if (!server) throw new ImportRefused(`No server with id ${serverId}.`);
  if (server.driver === 'local') throw new ImportRefused(`Server ${server.name} has the local driver: there is no middleware database to import from.`);
  const dealer = await db.selectFrom('users').selectAll().where('id', '=', dealerId).where('role', '=', 'dealer').where('status', '!=', 'deleted').executeTakeFirst();
  if (!dealer) throw new ImportRefused(`No dealer with id ${dealerId}.`);
  const branch = await branchServerId(db, dealer);
  if (branch !== null && branch !== server.id) throw new ImportRefused(`Dealer ${dealer.username} works on another server (id ${branch}).`);

  const subscribers = await (await provisioners.forRow(server)).subscribers();
  const accounts = await db
    .selectFrom('accounts')
    .select(['login', 'mac_address', 'middleware_id'])
    .where('server_id', '=', server.id)
    .where('deleted_at', 'is', null)
    .execute();
  const known = new Set(accounts.flatMap((a) => (a.middleware_id !== null ? [a.middleware_id] : [])));
  const logins = new Set(accounts.map((a) => a.login.toLowerCase()));
  const macs = new Set(accounts.map((a) => a.mac_address));

  const plan: ImportPlan = {
    server: { id: server.id, name: server.name },
    dealer: { id: dealer.id, username: dealer.username, path: dealer.path },
    adopt: [],
    skipped: [],
  };
  for (const subscriber of subscribers) {
    const skip = (reason: string) => plan.skipped.push({ subscriber, reason });
    if (known.has(subscriber.id)) continue; // already an account of the panel
    const mac = subscriber.mac_address ? normalizeMac(subscriber.mac_address) : null;
    if (!mac) {
      skip('no valid MAC address');
      continue;
    }
    // A subscriber known only by its box gets its MAC address as login.
    const login = subscriber.login || mac.toLowerCase();
    if (!LOGIN.test(login)) skip(`login "${login}" has characters the panel does not accept`);
    else if (macs.has(mac)) skip('an account of the panel already uses this MAC address');
    else if (logins.has(login.toLowerCase())) skip('an account of the panel already uses this login');
    else {
      plan.adopt.push({ subscriber, login, mac });
      macs.add(mac);
      logins.add(login.toLowerCase());
    }
  }
  return plan;
}

/** Adopts the plan's subscribers as accounts of its dealer, all or none; answers how many. */
export async function applyImport(db: Kysely<Database>, plan: ImportPlan): Promise<number> {
  if (plan.adopt.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    for (const { subscriber, login, mac } of plan.adopt) {
      const { id } = await trx
        .insertInto('accounts')
        .values(
          newAccountRow({
            owner_id: plan.dealer.id,
            owner_path: plan.dealer.path,
            server_id: plan.server.id,
            middleware_id: subscriber.id,
            login,
            full_name: subscriber.full_name || login,
            pwd_txt: '',
            mac_address: mac,
            expiry_date: subscriber.expiry_date,
            status: subscriber.enabled ? 'active' : 'suspended',
            created_at: now,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordSystemAudit(trx, {
        module: 'accounts',
        action: 'import',
        entityId: id,
        targetUsername: login,
        description: `Imported from the middleware of ${plan.server.name} (subscriber ${subscriber.id}) for dealer ${plan.dealer.username}`,
        newValues: { login, mac_address: mac, expiry_date: subscriber.expiry_date, server_id: plan.server.id, owner_id: plan.dealer.id },
      });
    }
    return plan.adopt.length;
  });
}
