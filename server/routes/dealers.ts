/**
 * Dealers: under a reseller (`reseller`: a reseller creates them under itself, a manager under one of
 * its resellers, admin under any). Also: promote to reseller, and recovery from the allocation history.
 */
import { z } from 'zod';
import {
  CREDITS,
  HIERARCHY,
  apiErrorBody,
  creditMoveResultEntity,
  dataOf,
  hierarchyUserEntity,
  messageDataOf,
  recoveryHistoryItemEntity,
  dealerCreateBody,
  dealerUpdateBody,
  idParam,
  promoteDealerBody,
  recoverFromHistoryBody,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { fieldError } from '../http/errors';
import { actorOf } from '../http/guard';
import { recoverFromHistory, recoveryHistory } from '../credits/history';
import { runCreditOperation } from './creditOperation';
import { findMember, presentOne } from '../hierarchy/members';
import { moveSubtree } from '../hierarchy/paths';
import { liveUser } from '../hierarchy/members';
import { creditTarget, underManagerFilter, userRoutes } from './userLevels';

export default userRoutes({
  role: 'dealer',
  resource: 'dealers',
  label: 'Dealer',
  childrenLabel: null,
  createBody: dealerCreateBody,
  updateBody: dealerUpdateBody,
  statuses: ['active', 'inactive', 'suspended'],
  creationMinimum: 'minimum_credits_dealer_creation',
  async parentForCreate(db, actor, body) {
    if (actor.role === 'reseller') {
      if (body.reseller && body.reseller !== actor.id) throw fieldError('reseller', HIERARCHY.resellerInvalid);
      return actor;
    }
    if (!body.reseller) throw fieldError('reseller', HIERARCHY.resellerRequired);
    const reseller = await liveUser(db, body.reseller, 'reseller');
    if (!reseller || (actor.role === 'manager' && reseller.parent_id !== actor.id)) {
      throw fieldError('reseller', HIERARCHY.resellerInvalid);
    }
    return reseller;
  },
  filters: {
    reseller: { column: 'u.parent_id', type: 'int' },
    reseller_id: { column: 'u.parent_id', type: 'int' },
    manager: underManagerFilter,
    manager_id: underManagerFilter,
  },
  extraRoutes(app, { db, audit, creditResponse }) {
    const tags = ['dealers'];

    // The dealer becomes a reseller under a manager; its accounts stay with it.
    app.post(
      '/dealers/:id/promote',
      {
        config: { access: ['dealers', 'promote'] },
        schema: { params: idParam, body: promoteDealerBody, response: { 200: messageDataOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags },
      },
      async (request) => {
        const actor = actorOf(request);
        const dealer = await findMember(db, actor, request.params.id, 'dealer');
        const { manager_id } = request.body;
        if (actor.role !== 'admin' && manager_id !== actor.id) throw fieldError('manager_id', HIERARCHY.managerInvalid);
        const manager = await liveUser(db, manager_id, 'manager');
        if (!manager) throw fieldError('manager_id', HIERARCHY.managerInvalid);
        await inTransaction(db, async (trx) => {
          await trx.updateTable('users').set({ role: 'reseller', updated_at: nowIso() }).where('id', '=', dealer.id).execute();
          const path = await moveSubtree(trx, dealer, manager);
          await audit(
            trx,
            request,
            'promote',
            dealer,
            { role: 'dealer', parent_id: dealer.parent_id, path: dealer.path },
            { role: 'reseller', parent_id: manager.id, path },
          );
        });
        return { message: HIERARCHY.promoted, data: await presentOne(db, dealer.id) };
      },
    );

    app.get(
      '/dealers/:id/credits/recovery-history',
      {
        config: { access: ['dealers', 'credits'] },
        schema: { params: idParam, response: { 200: dataOf(z.array(recoveryHistoryItemEntity)), '4xx': apiErrorBody }, tags },
      },
      async (request) => {
        const dealer = await findMember(db, actorOf(request), request.params.id, 'dealer');
        return { data: await recoveryHistory(db, dealer) };
      },
    );

    app.post(
      '/dealers/:id/credits/recover-from-history',
      {
        config: { access: ['dealers', 'credits'] },
        schema: { params: idParam, body: recoverFromHistoryBody, response: { 200: messageDataOf(creditMoveResultEntity), '4xx': apiErrorBody }, tags },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        return runCreditOperation(app, request, reply, actor, {
          prepare: async () => {
            const target = await creditTarget(db, actor, request.params.id, 'dealer');
            if (actor.role !== 'admin' && target.row.parent_id !== actor.id) throw fieldError('recipient', CREDITS.recipient);
            return target;
          },
          run: async (trx, target) => {
            const dealer = target.row;
            const result = await recoverFromHistory(trx, actor.id, dealer.id, request.body.transaction_id);
            await recordAudit(trx, request, {
              module: 'credits',
              action: 'recover_from_history',
              entityId: dealer.id,
              targetUsername: dealer.username,
              description: `Recovered ${result.credits} credits of transaction #${request.body.transaction_id}`,
              oldValues: { credits: result.entries.find((e) => e.user_id === dealer.id)?.balance_before ?? dealer.credits },
              newValues: { credits: result.target.credits, bonus_credits: result.target.bonus_credits, transactions: result.entries.map((e) => e.transaction_number) },
            });
            return creditResponse(result, HIERARCHY.creditsRecovered, target);
          },
        });
      },
    );
  },
});
