/**
 * Global discounts (menu 'User Promo'): server-wide renewal prices, admin CRUD. Renewal pricing
 * applies them (within valid_from/valid_until and max_uses) and counts current_uses.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, Selectable } from 'kysely';
import { type GlobalDiscount, type GlobalDiscountBody, SERVER_FORM, globalDiscountBody, idParam } from '../../src/contract';
import { toGlobalDiscount } from '../accounts/pricing';
import { recordAudit } from '../audit';
import type { Database, GlobalDiscountsTable } from '../db/schema';
import { flag, nowIso } from '../db/values';
import { fieldError, notFound } from '../http/errors';
import { type ListSpec, paginate } from '../http/list';

export type GlobalDiscountRow = Selectable<GlobalDiscountsTable> & { server_name: string | null };

/** Discounts joined with their server's name; add where clauses, then map rows with toGlobalDiscount. */
export const globalDiscountRows = (db: Kysely<Database>) =>
  db.selectFrom('global_discounts as d').leftJoin('servers as s', 's.id', 'd.server_id');

export const selectGlobalDiscount = (qb: ReturnType<typeof globalDiscountRows>) => qb.selectAll('d').select('s.name as server_name');

/** The columns the form sets (current_uses is counted by renewals, never set through the form). */
const columns = (body: GlobalDiscountBody) => ({
  name: body.name,
  description: body.description,
  server_id: body.server_id,
  validity_months: body.validity_months,
  credits_required: body.credits_required,
  discount_percentage: body.discount_percentage,
  is_active: flag(body.is_active),
  valid_from: body.valid_from,
  valid_until: body.valid_until,
  max_uses: body.max_uses,
});

const listSpec: ListSpec = {
  search: ['d.name', 'd.description'],
  plainFilters: ['server_id', 'is_active', 'validity_months'],
  filters: {
    server_id: { column: 'd.server_id', type: 'int' },
    is_active: { column: 'd.is_active', type: 'boolean' },
    validity_months: { column: 'd.validity_months', type: 'int' },
  },
  sorts: {
    id: 'd.id',
    name: 'd.name',
    validity_months: 'd.validity_months',
    credits_required: 'd.credits_required',
    discount_percentage: 'd.discount_percentage',
    current_uses: 'd.current_uses',
    is_active: 'd.is_active',
    created_at: 'd.created_at',
    updated_at: 'd.updated_at',
  },
  defaultSort: 'validity_months',
  idColumn: 'd.id',
};

const globalDiscountRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const findOne = async (id: number) => {
    const row = await selectGlobalDiscount(globalDiscountRows(db)).where('d.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row as GlobalDiscountRow;
  };
  const requireServer = async (serverId: number) => {
    const server = await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst();
    if (!server) throw fieldError('server_id', SERVER_FORM.selectedInvalid);
  };

  app.get('/global-discounts', { config: { access: ['global-discounts', 'list'] }, schema: { tags: ['global-discounts'] } }, async (request) =>
    paginate<GlobalDiscountRow, GlobalDiscount>(
      globalDiscountRows(db),
      request.query as Record<string, unknown>,
      listSpec,
      (qb) => selectGlobalDiscount(qb as ReturnType<typeof globalDiscountRows>),
      toGlobalDiscount,
    ),
  );

  app.get(
    '/global-discounts/:id',
    { config: { access: ['global-discounts', 'show'] }, schema: { params: idParam, tags: ['global-discounts'] } },
    async (request) => ({ data: toGlobalDiscount(await findOne(request.params.id)) }),
  );

  app.post(
    '/global-discounts',
    { config: { access: ['global-discounts', 'create'] }, schema: { body: globalDiscountBody, tags: ['global-discounts'] } },
    async (request, reply) => {
      const body = request.body;
      await requireServer(body.server_id);
      const now = nowIso();
      const { id } = await db
        .insertInto('global_discounts')
        .values({
          ...columns(body),
          current_uses: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(db, request, { module: 'global_discounts', action: 'create', entityId: id, description: `Created global discount ${body.name}`, newValues: body });
      return reply.code(201).send({ data: toGlobalDiscount(await findOne(id)) });
    },
  );

  app.put(
    '/global-discounts/:id',
    { config: { access: ['global-discounts', 'edit'] }, schema: { params: idParam, body: globalDiscountBody, tags: ['global-discounts'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const body = request.body;
      await requireServer(body.server_id);
      await db
        .updateTable('global_discounts')
        .set({
          ...columns(body),
          updated_at: nowIso(),
        })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'global_discounts',
        action: 'update',
        entityId: before.id,
        description: `Updated global discount ${body.name}`,
        oldValues: toGlobalDiscount(before),
        newValues: body,
      });
      return { data: toGlobalDiscount(await findOne(before.id)) };
    },
  );

  app.delete(
    '/global-discounts/:id',
    { config: { access: ['global-discounts', 'delete'] }, schema: { params: idParam, tags: ['global-discounts'] } },
    async (request, reply) => {
      const before = await findOne(request.params.id);
      await db.deleteFrom('global_discounts').where('id', '=', before.id).execute();
      await recordAudit(db, request, {
        module: 'global_discounts',
        action: 'delete',
        entityId: before.id,
        description: `Deleted global discount ${before.name}`,
        oldValues: toGlobalDiscount(before),
      });
      return reply.code(204).send();
    },
  );
};

export default globalDiscountRoutes;
