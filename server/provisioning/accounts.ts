/** Account writes carried to the middleware of the accounts' servers. */
import type { Kysely } from 'kysely';
import { softDeleteAccount } from '../accounts/store';
import type { Database } from '../db/schema';
import type { Provisioners } from './index';
import type { MirroredAccount } from './types';

/** Deletes an account (soft, see softDeleteAccount) and its subscriber, both or neither (one outcome). */
export async function deleteAccountEverywhere(
  provisioners: Provisioners,
  db: Kysely<Database>,
  account: MirroredAccount & { server_id: number | null },
  actorId: number | null,
): Promise<void> {
  const outcome = await provisioners.outcome('delete', actorId);
  await outcome.transact(async (trx) => {
    await softDeleteAccount(trx, account.id);
    outcome.unmirror(account);
  });
}
