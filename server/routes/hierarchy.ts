/**
 * The caller's subtree as one tree (GET /hierarchy/tree): every manager, reseller and dealer below it
 * with its balance and its branch's accounts: the kept counts per owner (migration 0013, and
 * accounts/expiring.ts), summed up each member's path, so a tree over a million accounts reads a
 * few thousand tally rows.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorBody, dataOf, idParam, messageDataOf } from '../../src/contract';
import { CAPS, type HierarchyNode, hierarchyTree, hierarchyTreeQuery, memberCapsBody, memberCapsEntity } from '../../src/contract';
import { expiringByOwner } from '../accounts/expiring';
import { recordAudit } from '../audit';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { capsView } from '../hierarchy/caps';
import { actorOf } from '../http/guard';
import { below, ownedWithin, pathIds } from '../http/scope';
import { DELETED, findMember } from '../hierarchy/members';

const MEMBER_ROLES = ['manager', 'reseller', 'dealer'];

const hierarchyRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  app.get(
    '/hierarchy/tree',
    {
      config: { access: ['hierarchy', 'list'] },
      schema: { querystring: hierarchyTreeQuery, response: { 200: dataOf(hierarchyTree), '4xx': apiErrorBody }, tags: ['hierarchy'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const days = request.query.expiring_days;
      const tallies = () => db.selectFrom('account_tallies as t').where(ownedWithin(actor, 't.owner_id'));
      const [members, live, expiring] = await Promise.all([
        db
          .selectFrom('users')
          .where(below(actor, 'path'))
          .where('role', 'in', MEMBER_ROLES)
          .where('status', '!=', DELETED)
          .select(['id', 'parent_id', 'role', 'username', 'name', 'status', 'credits', 'path'])
          .orderBy('path')
          .execute(),
        tallies().where('t.kind', '=', 'all').where('t.bucket', '=', '').select(['t.owner_id', 't.n', 't.active']).execute(),
        expiringByOwner(db, actor, Number(days)),
      ]);

      const self = { ...actor, parent_id: null };
      const rows = [self, ...members.filter((m) => m.id !== actor.id)];
      const nodes = new Map<number, HierarchyNode & { path: string }>();
      for (const m of rows) {
        const parent = m.parent_id === null || m.id === actor.id ? undefined : nodes.get(m.parent_id);
        nodes.set(m.id, {
          id: m.id,
          parent_id: m.id === actor.id ? null : m.parent_id,
          role: m.role as HierarchyNode['role'],
          username: m.username,
          name: m.name,
          status: m.status,
          credits: Number(m.credits),
          // Path order puts a parent first; the caller's own branch is live, or it had no session.
          blocked: m.status !== 'active' || (parent?.blocked ?? false),
          accounts: 0,
          active_accounts: 0,
          expiring_accounts: 0,
          path: m.path,
        });
      }
      // Each owner's figures count for it and for every member above it in the tree (up to the caller).
      const addUp = (ownerId: number, field: 'accounts' | 'active_accounts' | 'expiring_accounts', n: number) => {
        const owner = nodes.get(ownerId);
        if (!owner || !n) return;
        for (const id of pathIds(owner.path)) {
          const node = nodes.get(id);
          if (node) node[field] += n;
        }
      };
      for (const t of live) {
        addUp(t.owner_id, 'accounts', Number(t.n));
        addUp(t.owner_id, 'active_accounts', Number(t.active));
      }
      for (const t of expiring) addUp(t.owner_id, 'expiring_accounts', t.n);

      return { data: { expiring_days: days, nodes: [...nodes.values()].map(({ path: _path, ...node }) => node) } };
    },
  );

  // A member's limits, read and set by any user above it (docs/domain.md#caps).
  app.get(
    '/hierarchy/caps/:id',
    { config: { access: ['hierarchy', 'caps'] }, schema: { params: idParam, response: { 200: dataOf(memberCapsEntity), '4xx': apiErrorBody }, tags: ['hierarchy'] } },
    async (request) => ({ data: await capsView(db, await findMember(db, actorOf(request), request.params.id, null)) }),
  );
  app.put(
    '/hierarchy/caps/:id',
    {
      config: { access: ['hierarchy', 'caps'] },
      schema: { params: idParam, body: memberCapsBody, response: { 200: messageDataOf(memberCapsEntity), '4xx': apiErrorBody }, tags: ['hierarchy'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const member = await findMember(db, actor, request.params.id, null);
      const caps = request.body;
      const before = await capsView(db, member);
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('member_caps')
          .values({ user_id: member.id, ...caps, updated_by: actor.id, updated_at: nowIso() })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...caps, updated_by: actor.id, updated_at: nowIso() }))
          .execute();
        await recordAudit(trx, request, {
          module: member.role + 's',
          action: 'caps',
          entityId: member.id,
          targetUsername: member.username,
          oldValues: before.caps,
          newValues: caps,
        });
      });
      return { message: CAPS.saved(member.username), data: await capsView(db, member) };
    },
  );
  // The caller's own limits and their use, for its dashboard.
  app.get(
    '/hierarchy/my-caps',
    { config: { access: ['dashboard', 'list'] }, schema: { response: { 200: dataOf(memberCapsEntity), '4xx': apiErrorBody }, tags: ['hierarchy'] } },
    async (request) => ({ data: await capsView(db, actorOf(request)) }),
  );
};

export default hierarchyRoutes;
