/**
 * The plain CRUD resources of the API (ticket categories, themes, user promos, servers, global
 * discounts) from one declaration each: GET list, GET one, POST, PUT and DELETE under
 * /<resource>, guarded by the role matrix as [resource, 'list'|'show'|'create'|'edit'|'delete'],
 * with their params, querystring, body and response schemas stated (so /api/docs is complete and
 * responses are serialised by schema). A resource's own routes (a toggle, a check, a picker list)
 * sit beside them through `routes`, with the same lookups.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, type SelectQueryBuilder, type Transaction, type Updateable, sql } from 'kysely';
import { z } from 'zod';
import { apiErrorBody, fieldsInfo, idParam, noContent } from '../../src/contract';
import { type AuditEntry, recordAudit } from '../audit';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { bool, flag, nowIso } from '../db/values';
import { fieldError, notFound } from '../http/errors';
import { type ListSpec, listQuerystring, pageSchema, paginate, shapePage } from '../http/list';

type AnyQuery = SelectQueryBuilder<any, any, any>;
type Table = keyof Database & string;
export type App = FastifyInstance<any, any, any, any, ZodTypeProvider>;

/** The columns a write sets, as the table names them. */
export type Columns<T extends Table> = Updateable<Database[T]>;

/** A field that no two records share; a taken value answers 422 under the field. */
export interface UniqueField<Body> {
  field: keyof Body & string;
  message: string;
  /** Compare lower-cased ('Billing' takes 'billing'). */
  caseInsensitive?: boolean;
}

/** What the factory's routes and a resource's own routes share. */
export interface CrudKit<Row, Api> {
  db: Kysely<Database>;
  /** The aliased base query with its select (computed columns included); add where clauses. */
  query: () => AnyQuery;
  /** The row of that id, or 404. */
  findOne: (id: number) => Promise<Row>;
  toApi: (row: Row) => Api;
  /** `{ data: <resource> }`, the response schema of a single-record answer. */
  item: z.ZodType<{ data: Api }>;
  /** The shared 4xx schema, for custom routes' `response`. */
  errors: typeof apiErrorBody;
}

export interface CrudDeclaration<T extends Table, Row extends { id: number }, Api, Body> {
  /** The path (/<resource>) and the role matrix resource of config.access. */
  resource: string;
  /** OpenAPI tags; [resource] unless given. */
  tags?: string[];
  table: T;
  /** The alias `from` gives the table (the id column is `<alias>.id`). */
  alias: string;
  /** FROM `<table> as <alias>` with its joins; no select. */
  from: (db: Kysely<Database>) => AnyQuery;
  /** Adds the columns a row carries (the table's and computed ones). */
  select: (qb: AnyQuery) => AnyQuery;
  /** The list on its contract entry (the entry gives the page's shape). */
  list: ListSpec;
  /** Row to API; fromRow(entity) unless given (spread it and set the fields it cannot make). */
  toApi?: (row: Row) => Api;
  /** The resource as the API sends it (the contract's schema). */
  entity: z.ZodType<Api>;
  /** Create and update body (the contract's schema). */
  body: z.ZodType<Body, any>;
  /**
   * How a valid body maps to columns; `before` is the stored row on update, null on create. May refuse
   * (throw). toColumns(body) unless given: each body field in the column of its name.
   */
  columns?: (body: Body, before: Row | null, app: App) => Columns<T> | Promise<Columns<T>>;
  /** Columns only a create sets (counters starting at 0). */
  createColumns?: Columns<T>;
  unique?: UniqueField<Body>[];
  audit: {
    /** audit_logs.module */
    module: string;
    /** 'theme' gives 'Created theme <name>'; no description without it. */
    noun?: string;
    /** What the log keeps of a body (the body itself unless given). */
    values?: (body: Body) => unknown;
  };
  /** Checks beyond the schema and uniqueness (a referenced record exists); throw to refuse. */
  check?: (body: Body, kit: CrudKit<Row, Api>) => Promise<void>;
  /** Runs in the write's transaction after the insert or update (one active theme). */
  afterWrite?: (trx: Transaction<Database>, id: number, body: Body, now: string) => Promise<void>;
  /** Runs before a delete; throw to refuse (a server still in use). */
  beforeDelete?: (before: Row, kit: CrudKit<Row, Api>) => Promise<void>;
  /** The resource's own routes, registered before the CRUD ones. */
  routes?: (app: App, kit: CrudKit<Row, Api>) => void | Promise<void>;
}

const nameOf = (value: unknown) => (value as { name?: string }).name;

/**
 * A row as the entity schema sends it: each of the schema's fields from the column of its name, a
 * boolean from its 0/1 flag and a number from the bigint or text some drivers answer counts with.
 */
export function fromRow<Api>(entity: z.ZodType<Api>) {
  const fields = fieldsInfo(entity as unknown as z.ZodObject);
  return (row: object): Api => {
    const source = row as Record<string, unknown>;
    return Object.fromEntries(
      fields.map(([name, info]) => {
        const value = source[name];
        if (info.kind === 'boolean') return [name, bool(value as number)];
        if (info.kind === 'number') return [name, value === null || value === undefined ? (info.nullable ? null : 0) : Number(value)];
        return [name, value];
      }),
    ) as Api;
  };
}

/** A valid body as columns: each field in the column of its name, a boolean as its 0/1 flag. */
export function toColumns<Body>(body: z.ZodType<Body, any>) {
  const fields = fieldsInfo(body as unknown as z.ZodObject);
  return (values: Body): Record<string, unknown> =>
    Object.fromEntries(
      fields.map(([name, info]) => {
        const value = (values as Record<string, unknown>)[name];
        return [name, info.kind === 'boolean' && value !== undefined ? flag(value as boolean) : value];
      }),
    );
}

export function crudRoutes<T extends Table, Row extends { id: number }, Api, Body>(decl: CrudDeclaration<T, Row, Api, Body>): FastifyPluginAsyncZod {
  const path = `/${decl.resource}`;
  const tags = decl.tags ?? [decl.resource];
  const item = z.object({ data: decl.entity }) as z.ZodType<{ data: Api }>;
  const list = pageSchema(decl.list.entry, decl.entity);
  const access = (action: string) => ({ access: [decl.resource, action] as [string, string] });
  const describe = (verb: string, name: string | undefined) => (decl.audit.noun ? `${verb} ${decl.audit.noun} ${name}` : undefined);
  const auditValues = (body: Body) => (decl.audit.values ? decl.audit.values(body) : body);

  const toApi = decl.toApi ?? fromRow(decl.entity);
  const bodyColumns = toColumns(decl.body);
  const columnsOf = decl.columns ?? ((body: Body) => bodyColumns(body) as Columns<T>);

  return async (app) => {
    const db = app.db.kysely;
    const anyDb = db as unknown as Kysely<any>;
    const table: string = decl.table;
    const query = () => decl.select(decl.from(db));
    const findOne = async (id: number) => {
      const row = await query().where(`${decl.alias}.id`, '=', id).executeTakeFirst();
      if (!row) throw notFound();
      return row as Row;
    };
    const kit: CrudKit<Row, Api> = { db, query, findOne, toApi, item, errors: apiErrorBody };

    const checkUnique = async (body: Body, exceptId?: number) => {
      for (const unique of decl.unique ?? []) {
        const value = String(body[unique.field]);
        let q = anyDb.selectFrom(table).select('id');
        q = unique.caseInsensitive ? q.where(sql`lower(${sql.ref(unique.field)})`, '=', value.toLowerCase()) : q.where(unique.field as string, '=', value);
        if (exceptId) q = q.where('id', '!=', exceptId);
        if (await q.executeTakeFirst()) throw fieldError(unique.field, unique.message);
      }
    };
    /** The write, in a transaction with afterWrite when the resource has one. */
    const write = async (fn: (trx: Kysely<Database>) => Promise<number>, body: Body, now: string) => {
      if (!decl.afterWrite) return fn(db);
      return inTransaction(db, async (trx) => {
        const id = await fn(trx);
        await decl.afterWrite!(trx, id, body, now);
        return id;
      });
    };
    const audit = (request: FastifyRequest, entry: Omit<AuditEntry, 'module'>) => recordAudit(db, request, { ...entry, module: decl.audit.module });

    if (decl.routes) await decl.routes(app, kit);

    app.get(
      path,
      { config: access('list'), schema: { querystring: listQuerystring(decl.list), response: { 200: list, '4xx': apiErrorBody }, tags } },
      async (request) => {
        const page = await paginate<Row, Api>(decl.from(db), request.query as Record<string, unknown>, decl.list, decl.select, toApi);
        return shapePage(decl.list.entry, page);
      },
    );

    app.get(`${path}/:id`, { config: access('show'), schema: { params: idParam, response: { 200: item, '4xx': apiErrorBody }, tags } }, async (request) => ({
      data: toApi(await findOne(request.params.id)),
    }));

    app.post(path, { config: access('create'), schema: { body: decl.body, response: { 201: item, '4xx': apiErrorBody }, tags } }, async (request, reply) => {
      const body = request.body as Body;
      await checkUnique(body);
      await decl.check?.(body, kit);
      const columns = await columnsOf(body, null, app);
      const now = nowIso();
      const id = await write(
        async (trx) =>
          (
            await (trx as unknown as Kysely<any>)
              .insertInto(table)
              .values({ ...columns, ...decl.createColumns, created_at: now, updated_at: now })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id as number,
        body,
        now,
      );
      await audit(request, { action: 'create', entityId: id, description: describe('Created', nameOf(body)), newValues: auditValues(body) });
      return reply.code(201).send({ data: toApi(await findOne(id)) });
    });

    app.put(
      `${path}/:id`,
      { config: access('edit'), schema: { params: idParam, body: decl.body, response: { 200: item, '4xx': apiErrorBody }, tags } },
      async (request) => {
        const before = await findOne(request.params.id);
        const body = request.body as Body;
        await checkUnique(body, before.id);
        await decl.check?.(body, kit);
        const columns = await columnsOf(body, before, app);
        const now = nowIso();
        await write(
          async (trx) => {
            await (trx as unknown as Kysely<any>)
              .updateTable(table)
              .set({ ...columns, updated_at: now })
              .where('id', '=', before.id)
              .execute();
            return before.id;
          },
          body,
          now,
        );
        await audit(request, {
          action: 'update',
          entityId: before.id,
          description: describe('Updated', nameOf(body)),
          oldValues: toApi(before),
          newValues: auditValues(body),
        });
        return { data: toApi(await findOne(before.id)) };
      },
    );

    app.delete(
      `${path}/:id`,
      { config: access('delete'), schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags } },
      async (request, reply) => {
        const before = await findOne(request.params.id);
        await decl.beforeDelete?.(before, kit);
        await anyDb.deleteFrom(table).where('id', '=', before.id).execute();
        await audit(request, { action: 'delete', entityId: before.id, description: describe('Deleted', nameOf(before)), oldValues: toApi(before) });
        // No content: nothing for a response schema to shape.
        return (reply as FastifyReply).code(204).send();
      },
    );
  };
}
