/**
 * The caller's subtree as one tree (GET /hierarchy/tree): every manager, reseller and dealer below it
 * with its balance and its branch's accounts. The account figures come from the kept counts per
 * owner (migration 0013) and the rows of the window's partial days, summed up each member's path,
 * so a tree over a million accounts reads a few thousand tally rows.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { apiErrorBody, dataOf } from '../../src/contract';
import { type HierarchyNode, hierarchyTree, hierarchyTreeQuery } from '../../src/contract/resources/hierarchy';
import { addDays } from '../accounts/dates';
import { bucketParts, eachPart, rowsIn, signed, spansOf } from '../db/tallies';
import { actorOf } from '../http/guard';
import { below, ownedWithin, ownedWithinByDate, pathIds } from '../http/scope';
import { DELETED } from '../hierarchy/members';

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
      const now = new Date();
      // As the accounts list's expiry filter counts them: from now to N days ahead, both included.
      const window = spansOf({ at: now.toISOString(), inclusive: true }, { at: addDays(now, Number(days)).toISOString(), inclusive: true });
      const tallies = () => db.selectFrom('account_tallies as t').where(ownedWithin(actor, 't.owner_id'));

      const [members, live, keptExpiring, rowsExpiring] = await Promise.all([
        db
          .selectFrom('users')
          .where(below(actor, 'path'))
          .where('role', 'in', MEMBER_ROLES)
          .where('status', '!=', DELETED)
          .select(['id', 'parent_id', 'role', 'username', 'name', 'status', 'credits', 'path'])
          .orderBy('path')
          .execute(),
        tallies().where('t.kind', '=', 'all').where('t.bucket', '=', '').select(['t.owner_id', 't.n', 't.active']).execute(),
        db
          .selectFrom(
            eachPart(bucketParts(window), (part) =>
              tallies()
                .where(part.where)
                .select(['t.owner_id', signed(part, 't.n').as('n')]),
            ).as('p'),
          )
          .select(['p.owner_id', sql<number>`sum(p.n)`.as('n')])
          .groupBy('p.owner_id')
          .execute(),
        db
          .selectFrom('accounts')
          .where(ownedWithinByDate(actor, 'owner_id'))
          .where('deleted_at', 'is', null)
          .where(rowsIn('expiry_date', window))
          .select(['owner_id', sql<number>`count(*)`.as('n')])
          .groupBy('owner_id')
          .execute(),
      ]);

      const self = { ...actor, path: actor.path, parent_id: null } as (typeof members)[number];
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
      // Each owner's figures count for it and for every member above it up to the caller.
      const addUp = (ownerId: number, field: 'accounts' | 'active_accounts' | 'expiring_accounts', n: number) => {
        const owner = nodes.get(ownerId);
        if (!owner || !n) return;
        const ids = pathIds(owner.path);
        for (const id of ids.slice(ids.indexOf(actor.id) < 0 ? 0 : ids.indexOf(actor.id))) {
          const node = nodes.get(id);
          if (node) node[field] += n;
        }
      };
      for (const t of live) {
        addUp(t.owner_id, 'accounts', Number(t.n));
        addUp(t.owner_id, 'active_accounts', Number(t.active));
      }
      for (const t of [...keptExpiring, ...rowsExpiring]) addUp(t.owner_id, 'expiring_accounts', Number(t.n));

      return { data: { expiring_days: days, nodes: [...nodes.values()].map(({ path: _path, ...node }) => node) } };
    },
  );
};

export default hierarchyRoutes;
