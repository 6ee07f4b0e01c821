import type { Kysely } from 'kysely';
import { SERVER_FORM } from '../../src/contract';
import type { Database } from '../db/schema';
import { fieldError } from '../errors';

/** A record's server must exist (user promos, global discounts): 422 under server_id otherwise. */
export async function requireServer(db: Kysely<Database>, serverId: number): Promise<void> {
  const server = await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst();
  if (!server) throw fieldError('server_id', SERVER_FORM.selectedInvalid);
}
