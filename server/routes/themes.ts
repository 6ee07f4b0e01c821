/**
 * Themes: admin CRUD and the toggle. One theme at most is active, for everyone: activating one
 * deactivates the others, and GET /config hands the active theme's tokens to the panel.
 */
import type { Kysely, Selectable } from 'kysely';
import { LISTS, type Theme, type ThemeBody, THEME_FORM, idParam, themeBody, themeEntity } from '../../src/contract';
import { listSpec } from '../http/list';
import { recordAudit } from '../audit';
import type { Database, ThemesTable } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { bool, flag, nowIso, parseJson } from '../db/values';
import { crudRoutes, fromRow } from './crud';

type Row = Selectable<ThemesTable>;

const columnsToApi = fromRow(themeEntity);
/** The columns as they are, the tokens from their JSON text. */
const toApi = (row: Row): Theme => ({ ...columnsToApi(row), tokens: parseJson<Theme['tokens']>(row.tokens, null) });

/** Only the tokens that are set are stored; an empty set is none. */
const tokensText = (tokens: Record<string, unknown> | null | undefined): string | null => {
  if (!tokens) return null;
  const set = Object.fromEntries(Object.entries(tokens).filter(([, v]) => v !== undefined && v !== null));
  return Object.keys(set).length ? JSON.stringify(set) : null;
};

/** The columns the form sets. Absent tokens keep the stored ones (the plain form does not edit them); null clears them. */
const columns = (body: ThemeBody, before: Row | null) => ({
  name: body.name,
  slug: body.slug,
  description: body.description,
  is_active: flag(body.is_active),
  tokens: body.tokens === undefined && before ? before.tokens : tokensText(body.tokens),
});

const deactivateOthers = (db: Kysely<Database>, id: number, now: string) =>
  db.updateTable('themes').set({ is_active: 0, updated_at: now }).where('id', '!=', id).where('is_active', '=', 1).execute();

export default crudRoutes({
  resource: 'themes',
  table: 'themes',
  alias: 't',
  from: (db) => db.selectFrom('themes as t'),
  select: (qb) => qb.selectAll('t'),
  list: listSpec(LISTS.themes, {
    search: ['t.name', 't.slug', 't.description'],
    filters: { is_active: { column: 't.is_active', type: 'boolean' } },
    sorts: { id: 't.id', name: 't.name', slug: 't.slug', is_active: 't.is_active', created_at: 't.created_at', updated_at: 't.updated_at' },
    idColumn: 't.id',
  }),
  toApi,
  entity: themeEntity,
  body: themeBody,
  columns,
  unique: [{ field: 'slug', message: THEME_FORM.slugTaken }],
  audit: { module: 'themes', noun: 'theme' },
  // Activating one theme deactivates the others, in the same transaction.
  afterWrite: async (trx, id, body, now) => {
    if (body.is_active) await deactivateOthers(trx, id, now);
  },
  routes: (app, { db, findOne, item, errors }) => {
    app.post(
      '/themes/:id/toggle-status',
      { config: { access: ['themes', 'status'] }, schema: { params: idParam, response: { 200: item, '4xx': errors }, tags: ['themes'] } },
      async (request) => {
        const before = await findOne(request.params.id);
        const active = !bool(before.is_active);
        const now = nowIso();
        await inTransaction(db, async (trx) => {
          await trx
            .updateTable('themes')
            .set({ is_active: flag(active), updated_at: now })
            .where('id', '=', before.id)
            .execute();
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
  },
});
