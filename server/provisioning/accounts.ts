/** Account writes carried to the middleware of the accounts' servers. */
import type { Kysely } from 'kysely';
import { softDeleteAccount } from '../accounts/store';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import type { Provisioners } from './index';
import type { MirroredAccount, Undo } from './types';

const MIRRORED = ['a.id', 'a.server_id', 'a.middleware_id', 'a.login', 'a.full_name', 'a.pwd_txt', 'a.mac_address', 'a.status', 'a.expiry_date'] as const;

/**
 * Makes the middleware hold these accounts as `trx` now has them (those on servers with a
 * middleware driver), keeps each subscriber's id on its account, and registers the undo. Runs last
 * in the transaction: a middleware that refuses or cannot be reached throws, and nothing commits.
 */
export async function mirrorAccounts(provisioners: Provisioners, trx: Kysely<Database>, ids: number[], undo: Undo[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await trx
    .selectFrom('accounts as a')
    .innerJoin('servers as s', 's.id', 'a.server_id')
    .select(MIRRORED)
    .where('s.driver', '!=', 'local')
    .where('a.id', 'in', ids)
    .where('a.deleted_at', 'is', null)
    .execute();
  const byServer = new Map<number, MirroredAccount[]>();
  for (const row of rows) byServer.set(row.server_id!, [...(byServer.get(row.server_id!) ?? []), row]);
  for (const [serverId, accounts] of byServer) {
    const provisioner = await provisioners.forServer(serverId, trx);
    const pushed = await provisioner.push(accounts);
    undo.push(pushed.undo);
    for (const account of accounts) {
      const id = pushed.ids.get(account.id);
      if (id !== undefined && id !== account.middleware_id) {
        await trx.updateTable('accounts').set({ middleware_id: id }).where('id', '=', account.id).execute();
      }
    }
  }
}

/** Removes an account's subscriber from its server's middleware (delete, or a move to another server). */
export async function unmirrorAccount(
  provisioners: Provisioners,
  trx: Kysely<Database>,
  account: MirroredAccount & { server_id: number | null },
  undo: Undo[],
): Promise<void> {
  const provisioner = await provisioners.forServer(account.server_id, trx);
  undo.push((await provisioner.remove(account)).undo);
}

/** Deletes an account (soft, see softDeleteAccount) and its subscriber, both or neither. */
export async function deleteAccountEverywhere(
  provisioners: Provisioners,
  db: Kysely<Database>,
  account: MirroredAccount & { server_id: number | null },
): Promise<void> {
  await provisioners.mirrored((undo) =>
    inTransaction(db, async (trx) => {
      await softDeleteAccount(trx, account.id);
      await unmirrorAccount(provisioners, trx, account, undo);
    }),
  );
}
