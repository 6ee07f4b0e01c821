/**
 * Moving end-user accounts to another owner in the caller's subtree (POST /accounts/move, and its
 * preview): a reseller hands accounts from one dealer to another, a manager across its resellers.
 * The accounts keep their expiry, server and middleware subscriber; balances and the ledger are not
 * touched. All or nothing: one account that cannot move refuses the call (docs/domain.md#moves).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import {
  ACCOUNT_MOVES,
  type AccountMoveBody,
  type AccountMovePreview,
  accountMoveBody,
  accountMovePreviewEntity,
  accountMoveResultEntity,
  apiErrorBody,
  dataOf,
  messageDataOf,
  nameWithUsername,
} from '../../src/contract';
import { lockAccounts } from '../accounts/store';
import { recordAudits } from '../audit';
import type { Database, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { branchServerId, stoppedOnPath } from '../hierarchy/branch';
import { checkAccountCaps } from '../hierarchy/caps';
import { DELETED } from '../hierarchy/members';
import { conflict, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { within } from '../http/scope';

type Db = Kysely<Database>;
type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

/** The new owner: a live user in the caller's subtree, the caller included, or 404. */
async function newOwnerOf(db: Db, actor: Actor, id: number): Promise<UserRow> {
  const owner = await db.selectFrom('users').selectAll().where('id', '=', id).where('status', '!=', DELETED).where(within(actor, 'path')).executeTakeFirst();
  if (!owner) throw notFound();
  return owner;
}

/** What the move would do, read in `db` (the move's own transaction, with the accounts locked). */
async function plan(db: Db, actor: Actor, body: AccountMoveBody): Promise<{ owner: UserRow; preview: AccountMovePreview; fromPaths: string[] }> {
  const owner = await newOwnerOf(db, actor, body.to_owner_id);
  const accounts = await lockAccounts(db, actor, body.account_ids);
  const [serverId, stopped] = await Promise.all([branchServerId(db, owner), stoppedOnPath(db, owner.id)]);
  const others = [...new Set(accounts.map((a) => a.owner_id).filter((id) => id !== owner.id))];
  const [fromUsers, servers] = await Promise.all([
    others.length ? db.selectFrom('users').select(['id', 'username']).where('id', 'in', others).execute() : [],
    db.selectFrom('servers').select(['id', 'name']).execute(),
  ]);
  const usernameOf = new Map(fromUsers.map((u) => [u.id, u.username]));
  const serverName = (id: number | null) => servers.find((s) => s.id === id)?.name ?? String(id);
  const moving = accounts.filter((a) => a.owner_id !== owner.id);
  const refused = moving.flatMap((a) =>
    stopped.length > 0
      ? [{ id: a.id, login: a.login, reason: ACCOUNT_MOVES.ownerNotActive }]
      : serverId !== null && a.server_id !== null && a.server_id !== serverId
        ? [{ id: a.id, login: a.login, reason: ACCOUNT_MOVES.otherServer(serverName(a.server_id)) }]
        : [],
  );
  return {
    owner,
    fromPaths: moving.map((a) => a.owner_path),
    preview: {
      to: { id: owner.id, name: owner.name, username: owner.username, role: owner.role },
      moving: moving.map((a) => ({ id: a.id, login: a.login, from: usernameOf.get(a.owner_id) ?? String(a.owner_id) })),
      already_there: accounts.length - moving.length,
      refused,
    },
  };
}

const accountMoveRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const tags = ['accounts'];

  app.post(
    '/accounts/move/preview',
    {
      config: { access: ['accounts', 'move'] },
      schema: { body: accountMoveBody, response: { 200: dataOf(accountMovePreviewEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => ({ data: (await plan(db, actorOf(request), request.body)).preview }),
  );

  app.post(
    '/accounts/move',
    {
      config: { access: ['accounts', 'move'] },
      schema: { body: accountMoveBody, response: { 200: messageDataOf(accountMoveResultEntity), '4xx': apiErrorBody }, tags },
    },
    async (request: FastifyRequest<{ Body: AccountMoveBody }>) => {
      const actor = actorOf(request);
      // Read and written in one transaction with the accounts locked: a move, a renewal or a delete
      // of the same accounts running beside it waits, and the owner's path is the one it has now.
      const { owner, preview } = await inTransaction(db, async (trx) => {
        const planned = await plan(trx, actor, request.body);
        if (planned.preview.refused.length > 0) return planned;
        const ids = planned.preview.moving.map((a) => a.id);
        if (ids.length === 0) return planned;
        await checkAccountCaps(trx, planned.owner.path, planned.fromPaths);
        const at = nowIso();
        await trx.updateTable('accounts').set({ owner_id: planned.owner.id, owner_path: planned.owner.path, updated_at: at }).where('id', 'in', ids).execute();
        await recordAudits(
          trx,
          request,
          planned.preview.moving.map((account) => ({
            module: 'accounts',
            action: 'move',
            entityId: account.id,
            targetUsername: account.login,
            oldValues: { owner: account.from },
            newValues: { owner: planned.owner.username },
          })),
        );
        return planned;
      });
      if (preview.refused.length > 0) throw conflict(ACCOUNT_MOVES.refused(preview.refused.length));
      const ids = preview.moving.map((a) => a.id);
      return { message: ACCOUNT_MOVES.done(ids.length, nameWithUsername(owner.name, owner.username)), data: { moved: ids.length, account_ids: ids } };
    },
  );
};

export default accountMoveRoutes;
