/**
 * Themes: admin CRUD and the toggle. One theme at most is active, for everyone: activating one
 * deactivates the others, and GET /config hands the active theme's tokens to the panel.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, Selectable } from 'kysely';
import { type Theme, THEME_FORM, idParam, themeBody } from '../../src/contract';
import { recordAudit } from '../audit';
import type { Database, ThemesTable } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { bool, flag, nowIso, parseJson } from '../db/values';
import { fieldError, notFound } from '../http/errors';
import { type ListSpec, paginate } from '../http/list';

type Row = Selectable<ThemesTable>;

const toApi = (row: Row): Theme => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  is_active: bool(row.is_active),
  tokens: parseJson<Theme['tokens']>(row.tokens, null),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const listSpec: ListSpec = {
  search: ['t.name', 't.slug', 't.description'],
  filters: { is_active: { column: 't.is_active', type: 'boolean' } },
  sorts: { id: 't.id', name: 't.name', slug: 't.slug', is_active: 't.is_active', created_at: 't.created_at', updated_at: 't.updated_at' },
  defaultSort: 'name',
  idColumn: 't.id',
};

/** Only the tokens that are set are stored; an empty set is none. */
const tokensText = (tokens: Record<string, unknown> | null | undefined): string | null => {
  if (!tokens) return null;
  const set = Object.fromEntries(Object.entries(tokens).filter(([, v]) => v !== undefined && v !== null));
  return Object.keys(set).length ? JSON.stringify(set) : null;
};

const deactivateOthers = (db: Kysely<Database>, id: number, now: string) =>
  db.updateTable('themes').set({ is_active: 0, updated_at: now }).where('id', '!=', id).where('is_active', '=', 1).execute();

const themeRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const findOne = async (id: number) => {
    const row = await db.selectFrom('themes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };
  const slugTaken = async (slug: string, exceptId?: number) => {
    let q = db.selectFrom('themes').select('id').where('slug', '=', slug);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return Boolean(await q.executeTakeFirst());
  };

  // The panel reads theme lists under `themes` (spec 7).
  app.get('/themes', { config: { access: ['themes', 'list'] }, schema: { tags: ['themes'] } }, async (request) => {
    const page = await paginate<Row, Theme>(db.selectFrom('themes as t'), request.query as Record<string, unknown>, listSpec, (qb) => qb.selectAll('t'), toApi);
    return { themes: page.data, meta: page.meta };
  });

  app.get('/themes/:id', { config: { access: ['themes', 'show'] }, schema: { params: idParam, tags: ['themes'] } }, async (request) => ({
    data: toApi(await findOne(request.params.id)),
  }));

  app.post('/themes', { config: { access: ['themes', 'create'] }, schema: { body: themeBody, tags: ['themes'] } }, async (request, reply) => {
    const body = request.body;
    if (await slugTaken(body.slug)) throw fieldError('slug', THEME_FORM.slugTaken);
    const now = nowIso();
    const id = await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('themes')
        .values({ name: body.name, slug: body.slug, description: body.description, is_active: flag(body.is_active), tokens: tokensText(body.tokens), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (body.is_active) await deactivateOthers(trx, row.id, now);
      return row.id;
    });
    await recordAudit(db, request, { module: 'themes', action: 'create', entityId: id, description: `Created theme ${body.name}`, newValues: body });
    return reply.code(201).send({ data: toApi(await findOne(id)) });
  });

  app.put(
    '/themes/:id',
    { config: { access: ['themes', 'edit'] }, schema: { params: idParam, body: themeBody, tags: ['themes'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const body = request.body;
      if (await slugTaken(body.slug, before.id)) throw fieldError('slug', THEME_FORM.slugTaken);
      const now = nowIso();
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('themes')
          .set({
            name: body.name,
            slug: body.slug,
            description: body.description,
            is_active: flag(body.is_active),
            // Absent tokens keep the stored ones (the plain form does not edit them); null clears them.
            tokens: body.tokens === undefined ? before.tokens : tokensText(body.tokens),
            updated_at: now,
          })
          .where('id', '=', before.id)
          .execute();
        if (body.is_active) await deactivateOthers(trx, before.id, now);
      });
      await recordAudit(db, request, { module: 'themes', action: 'update', entityId: before.id, description: `Updated theme ${body.name}`, oldValues: toApi(before), newValues: body });
      return { data: toApi(await findOne(before.id)) };
    },
  );

  app.post(
    '/themes/:id/toggle-status',
    { config: { access: ['themes', 'status'] }, schema: { params: idParam, tags: ['themes'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const active = !bool(before.is_active);
      const now = nowIso();
      await inTransaction(db, async (trx) => {
        await trx.updateTable('themes').set({ is_active: flag(active), updated_at: now }).where('id', '=', before.id).execute();
        if (active) await deactivateOthers(trx, before.id, now);
      });
      await recordAudit(db, request, {
        module: 'themes',
        action: 'status',
        entityId: before.id,
        description: `${active ? 'Activated' : 'Deactivated'} theme ${before.name}`,
        oldValues: { is_active: bool(before.is_active) },
        newValues: { is_active: active },
      });
      return { data: toApi(await findOne(before.id)) };
    },
  );

  app.delete('/themes/:id', { config: { access: ['themes', 'delete'] }, schema: { params: idParam, tags: ['themes'] } }, async (request, reply) => {
    const before = await findOne(request.params.id);
    await db.deleteFrom('themes').where('id', '=', before.id).execute();
    await recordAudit(db, request, { module: 'themes', action: 'delete', entityId: before.id, description: `Deleted theme ${before.name}`, oldValues: toApi(before) });
    return reply.code(204).send();
  });
};

export default themeRoutes;
