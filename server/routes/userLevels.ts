/**
 * The routes of one user level (managers, resellers, dealers), registered from a declaration: list,
 * show, create, update, status, delete, credits and recovery options. The three route modules only
 * say what differs: who the parent is and which payload fields choose it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AliasableExpression, type Kysely, type Transaction, sql } from 'kysely';
import type { ZodType } from 'zod';
import {
  MAX_BALANCE,
  LIST_EXPORTS,
  CREDITS,
  ENTITY_FORM,
  GENERAL,
  HIERARCHY,
  type HierarchyUser,
  type Role,
  USER_STATUSES,
  type UserStatus,
  apiErrorBody,
  creditMoveBody,
  creditMoveResultEntity,
  dataOf,
  hierarchyUserEntity,
  idParam,
  messageDataOf,
  messageOnly,
  noContent,
  TWO_FACTOR,
  paginatedOf,
  recoveryOptionsResponseEntity,
  userStatusBody,
  type FilterOf,
  type ListEntry,
  type HierarchyListFilter,
  LISTS,
  type SortKeyOf,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { hashPassword } from '../auth/passwords';
import { revokeAllTokens } from '../auth/tokens';
import { removeSecondFactor } from '../auth/twoFactor';
import type { Database, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { conflict, fieldError, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { type FilterDef, type ListSpec, listQuerystring, listSpec, respondList } from '../http/list';
import { below, pathEndSql } from '../http/scope';
import { type SystemSettings, getSystemSettings, settingsOf } from '../settings';
import { insertUser } from '../users';
import { type MoveResult, giveCredits, lockUsers, recoverCredits } from '../credits/moves';
import { bonusFor } from '../credits/bonus';
import { postChanges } from '../ledger/post';
import { type OperationResult, runCreditOperation } from './creditOperation';
import { recoveryOptions } from '../credits/options';
import {
  DELETED,
  type MemberRow,
  findMember,
  findMemberCounted,
  memberBase,
  present,
  presentOne,
  presenter,
  refuseDeleteWhileHolding,
  usernameTaken,
  withCounts,
} from '../hierarchy/members';
import { moveSubtree } from '../hierarchy/paths';
import { lockBranch } from '../hierarchy/branch';

type Db = Kysely<Database>;
type LevelRole = 'manager' | 'reseller' | 'dealer';

/** The fields every create/update payload may carry (each level's schema picks its own). */
export interface CreateInput {
  name: string;
  username: string;
  password: string;
  credits: number;
  is_active: boolean;
  status?: UserStatus;
  phone?: string | null;
  server_id?: number | null;
  manager?: number | null;
  reseller?: number | null;
}
export type UpdateInput = Partial<Omit<CreateInput, 'password' | 'credits' | 'is_active'>> & {
  password: string | null;
  is_active?: boolean;
};

type LevelResource = 'managers' | 'resellers' | 'dealers';
/** The filters a level's list adds to the common ones: exactly those its contract entry names. */
type LevelFilters<R extends LevelResource> = R extends LevelResource ? Record<Exclude<FilterOf<(typeof LISTS)[R]>, HierarchyListFilter>, FilterDef> : never;

export interface LevelDef<R extends LevelResource = LevelResource> {
  role: LevelRole;
  resource: R;
  /** 'Manager', used in messages. */
  label: string;
  /** What one of its direct children is called in the delete refusal ('reseller'), or null. */
  childrenLabel: string | null;
  createBody: ZodType;
  updateBody: ZodType;
  statuses: readonly UserStatus[];
  /** The system setting a non-admin creator's balance must reach to create one. */
  creationMinimum?: keyof SystemSettings;
  /** The user a new one goes under, from the caller and the payload (422 on a bad choice). */
  parentForCreate(db: Db, actor: UserRow, body: CreateInput): Promise<UserRow>;
  /** A different parent chosen on update (moves the subtree), or null to stay. */
  parentForUpdate?(db: Db, actor: UserRow, target: UserRow, body: UpdateInput): Promise<UserRow | null>;
  /** The list filters of this level beyond the common ones. */
  filters: LevelFilters<R>;
  /** Extra routes (dealers: promote, recovery history). */
  extraRoutes?: (app: Parameters<FastifyPluginAsyncZod>[0], tools: LevelTools) => void;
}

export interface LevelTools {
  db: Db;
  audit: (db: Db, request: FastifyRequest, action: string, target: Pick<UserRow, 'id' | 'username'>, oldValues?: unknown, newValues?: unknown) => Promise<void>;
  /** The answer of a credit move on a target read before its transaction (creditTarget). */
  creditResponse: (result: MoveResult, message: string, target: CreditTarget) => OperationResult;
}

/**
 * The target of a credit move as read before its transaction: its row with the counts the answer
 * shows, and how to show it (names and server). A move changes none of these but the balance, so
 * reading them while both balances are locked would only make other moves on them wait.
 */
export interface CreditTarget {
  row: MemberRow;
  show: (row: MemberRow) => HierarchyUser;
}

export async function creditTarget(db: Db, actor: UserRow, id: number, role: Role): Promise<CreditTarget> {
  const row = await findMemberCounted(db, actor, id, role);
  return { row, show: await presenter(db, [row]) };
}

const statusFilter: FilterDef = {
  validate: (v) => (USER_STATUSES.includes(v as UserStatus) ? null : HIERARCHY.statusInvalid),
  apply: (qb, v) => qb.where('u.status', '=', v),
};
const isActiveFilter: FilterDef = {
  validate: (v) => (['1', '0', 'true', 'false'].includes(v.toLowerCase()) ? null : 'The is_active filter must be true or false.'),
  apply: (qb, v) => (['1', 'true'].includes(v.toLowerCase()) ? qb.where('u.status', '=', 'active') : qb.where('u.status', '!=', 'active')),
};
/** Users below a manager (by id), wherever they sit in its branch. */
export const underManagerFilter: FilterDef = {
  validate: (v) => (/^\d+$/.test(v) ? null : 'The manager filter must be an integer.'),
  apply: (qb, v) =>
    qb.where((eb) => {
      const manager = (value: AliasableExpression<string>) =>
        eb.selectFrom('users as m').select(value.as('p')).where('m.id', '=', Number(v)).where('m.role', '=', 'manager');
      return eb.and([eb('u.path', '>=', manager(sql<string>`m.path`)), eb('u.path', '<', manager(pathEndSql('m.path')))]);
    }),
};

const LEVEL_SORTS: Record<SortKeyOf<(typeof LISTS)[LevelResource]>, string> = {
  id: 'u.id',
  name: 'u.name',
  username: 'u.username',
  credits: 'u.credits',
  is_active: 'u.status',
  status: 'u.status',
  created_at: 'u.created_at',
  updated_at: 'u.updated_at',
  total_children: 'total_children',
  total_accounts: 'total_accounts',
};

function levelListSpec(level: LevelDef): ListSpec {
  const common: Record<HierarchyListFilter, FilterDef> = {
    is_active: isActiveFilter,
    status: statusFilter,
    parent_id: { column: 'u.parent_id', type: 'int' },
    // Members whose balance is below the threshold (the dashboard's Low on credits card opens it).
    low_credits: {
      apply: (qb, v) => qb.where('u.credits', '<', Number(v)),
      validate: (v) => (/^[1-9]\d{0,9}$/.test(v) && Number(v) <= MAX_BALANCE ? null : 'The low_credits filter must be a positive whole number of credits.'),
    },
  };
  return listSpec<ListEntry>(LISTS[level.resource], {
    search: ['u.name', 'u.username'],
    filters: { ...common, ...level.filters },
    sorts: LEVEL_SORTS,
    idColumn: 'u.id',
    csv: LIST_EXPORTS[level.resource],
  });
}

async function checkServer(db: Db, serverId: number | null | undefined): Promise<void> {
  if (serverId === undefined || serverId === null) return;
  const server = await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst();
  if (!server) throw fieldError('server_id', HIERARCHY.serverInvalid);
}

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};
const isForeignKeyViolation = (error: unknown) => {
  const code = (error as { code?: string })?.code;
  // SQLite's trigger of migration 0022 refuses the delete of a user with entries in the same words.
  return (
    code === '23503' ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    (code === 'SQLITE_CONSTRAINT_TRIGGER' && /^FOREIGN KEY constraint failed/.test((error as Error).message))
  );
};

/** The status an update asks for: an explicit status wins; is_active=false keeps a non-active one. */
function requestedStatus(current: string, body: { status?: UserStatus; is_active?: boolean }): UserStatus | undefined {
  if (body.status) return body.status;
  if (body.is_active === undefined) return undefined;
  if (body.is_active) return 'active';
  return current === 'active' ? 'inactive' : (current as UserStatus);
}

const snapshot = (u: UserRow) => ({
  name: u.name,
  username: u.username,
  phone: u.phone,
  status: u.status,
  server_id: u.server_id,
  parent_id: u.parent_id,
  role: u.role,
  credits: u.credits,
  bonus_credits: u.bonus_credits,
});

export function userRoutes<R extends LevelResource>(level: LevelDef<R>): FastifyPluginAsyncZod {
  const { resource, role, label } = level;
  const spec = levelListSpec(level);

  return async (app) => {
    const db = app.db.kysely;

    const audit: LevelTools['audit'] = (conn, request, action, target, oldValues, newValues) =>
      recordAudit(conn, request, { module: resource, action, entityId: target.id, targetUsername: target.username, oldValues, newValues });

    const creditResponse: LevelTools['creditResponse'] = (result, message, { row, show }) => {
      const user = show({ ...result.target, total_children: row.total_children, total_accounts: row.total_accounts });
      return {
        status: 200,
        body: {
          message,
          data: {
            user,
            actor_credits: result.actor.role === 'admin' ? null : result.actor.credits,
            credits: result.credits,
            bonus_credits: result.bonus,
            transactions: result.entries,
          },
        },
      };
    };
    const tools: LevelTools = { db, audit, creditResponse };

    const tags = [resource];

    app.get(
      `/${resource}`,
      {
        config: { access: [resource, 'list'] },
        schema: { querystring: listQuerystring(spec), response: { 200: paginatedOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const base = memberBase(db).where('u.role', '=', role).where(below(actor, 'u.path'));
        return respondList(request, reply, { base, spec, select: (qb) => withCounts(qb), present: (rows: MemberRow[]) => present(db, rows) }, (page) => page);
      },
    );

    app.get(
      `/${resource}/:id`,
      { config: { access: [resource, 'show'] }, schema: { params: idParam, response: { 200: dataOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags } },
      async (request) => {
        const target = await findMember(db, actorOf(request), request.params.id, role);
        return { data: await presentOne(db, target.id) };
      },
    );

    app.post(
      `/${resource}`,
      { config: { access: [resource, 'create'] }, schema: { body: level.createBody, response: { 201: messageDataOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags } },
      async (request, reply) => {
        const actor = actorOf(request);
        const body = request.body as CreateInput;
        const precheck = async () => {
          const parent = await level.parentForCreate(db, actor, body);
          await checkServer(db, body.server_id);
          if (await usernameTaken(db, body.username)) throw fieldError('username', ENTITY_FORM.usernameTaken);
          if (actor.role !== 'admin' && level.creationMinimum) {
            const minimum = Number((await getSystemSettings(db))[level.creationMinimum]);
            if (minimum > 0 && actor.credits < minimum) throw fieldError('credits', HIERARCHY.minimumToCreate(minimum, role));
          }
          return { parent, password_hash: await hashPassword(body.password) };
        };
        const status: UserStatus = body.status ?? (body.is_active ? 'active' : 'inactive');

        const create = async (trx: Transaction<Database>, { parent, password_hash }: Awaited<ReturnType<typeof precheck>>) => {
          // The parent's row is locked (a delete locks it too, so the two serialise) and the choice is
          // checked again on it: a parent deleted or moved away meanwhile gets no child.
          const giver = body.credits > 0 && actor.role !== 'admin' ? [actor.id] : [];
          const current = (await lockUsers(trx, [parent.id, ...giver])).get(parent.id);
          const chosen = await level.parentForCreate(trx, actor, body);
          if (!current || current.status === DELETED || chosen.id !== current.id) throw conflict(GENERAL.relatedRecordGone);
          const user = await insertUser(trx, current, {
            role,
            name: body.name,
            username: body.username,
            password_hash,
            phone: body.phone ?? null,
            status,
            server_id: role === 'manager' ? (body.server_id ?? null) : null,
          });
          let moved: { credits: number; bonus: number } | null = null;
          if (body.credits > 0) moved = await giveCredits(trx, actor.id, user.id, body.credits, { purpose: 'create', settings: await settingsOf(app, request) });
          const shown = await presentOne(trx, user.id);
          await audit(trx, request, 'create', user, null, {
            ...snapshot({ ...user, credits: shown.credits, bonus_credits: shown.bonus_credits }),
            initial_credits: moved?.credits ?? 0,
            initial_bonus_credits: moved?.bonus ?? 0,
          });
          return { status: 201, body: { message: HIERARCHY.created(label), data: shown } };
        };

        try {
          // Initial credits make the create a credit operation (Idempotency-Key, rate limit), like Add Credits.
          if (body.credits > 0) return await runCreditOperation(app, request, reply, actor, { prepare: precheck, run: create });
          const prepared = await precheck();
          const out = await inTransaction(db, (trx) => create(trx, prepared));
          return reply.code(out.status).send(out.body);
        } catch (error) {
          if (isUniqueViolation(error)) throw fieldError('username', ENTITY_FORM.usernameTaken);
          throw error;
        }
      },
    );

    const update = async (request: FastifyRequest, id: number, body: UpdateInput) => {
      const actor = actorOf(request);
      const target = await findMember(db, actor, id, role);
      if (body.username !== undefined && body.username !== target.username && (await usernameTaken(db, body.username, target.id))) {
        throw fieldError('username', ENTITY_FORM.usernameTaken);
      }
      if (role === 'manager') await checkServer(db, body.server_id);
      const newParent = level.parentForUpdate ? await level.parentForUpdate(db, actor, target, body) : null;
      const status = requestedStatus(target.status, body);
      const password_hash = body.password ? await hashPassword(body.password) : undefined;

      try {
        await inTransaction(db, async (trx) => {
          if (status && status !== 'active') await lockBranch(trx, target);
          await trx
            .updateTable('users')
            .set({
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.username !== undefined ? { username: body.username } : {}),
              ...(body.phone !== undefined ? { phone: body.phone } : {}),
              ...(role === 'manager' && body.server_id !== undefined ? { server_id: body.server_id } : {}),
              ...(status ? { status } : {}),
              ...(password_hash ? { password_hash } : {}),
              updated_at: nowIso(),
            })
            .where('id', '=', target.id)
            .execute();
          if (newParent) await moveSubtree(trx, target, newParent);
          // A disabled user, or one whose password an admin reset, signs in again (or not at all).
          if ((status && status !== 'active') || password_hash) await revokeAllTokens(trx, target.id);
          const after = await trx.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
          await audit(trx, request, newParent ? 'move' : 'update', target, snapshot(target), {
            ...snapshot(after),
            ...(password_hash ? { password_changed: true } : {}),
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw fieldError('username', ENTITY_FORM.usernameTaken);
        throw error;
      }
      return { message: HIERARCHY.updated(label), data: await presentOne(db, target.id) };
    };

    app.put(
      `/${resource}/:id`,
      {
        config: { access: [resource, 'edit'] },
        schema: { params: idParam, body: level.updateBody, response: { 200: messageDataOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags },
      },
      async (request) => update(request, request.params.id, request.body as UpdateInput),
    );

    app.patch(
      `/${resource}/:id`,
      {
        config: { access: [resource, 'status'] },
        schema: { params: idParam, body: userStatusBody, response: { 200: messageDataOf(hierarchyUserEntity), '4xx': apiErrorBody }, tags },
      },
      async (request) => {
        const actor = actorOf(request);
        const target = await findMember(db, actor, request.params.id, role);
        const status = requestedStatus(target.status, request.body)!;
        if (!level.statuses.includes(status)) throw fieldError('status', HIERARCHY.statusInvalid);
        await inTransaction(db, async (trx) => {
          // Stopping a user stops its branch: credit operations below it finish first or see it.
          if (status !== 'active') await lockBranch(trx, target);
          await trx.updateTable('users').set({ status, updated_at: nowIso() }).where('id', '=', target.id).execute();
          if (status !== 'active') await revokeAllTokens(trx, target.id);
          await audit(trx, request, 'status', target, { status: target.status }, { status });
        });
        return { message: HIERARCHY.statusUpdated, data: await presentOne(db, target.id) };
      },
    );

    // The user signs in with its password alone until it sets a second factor up again; its
    // sessions end. An administrator's own is reset only from the command line (no one is above it).
    app.post(
      `/${resource}/:id/two-factor/reset`,
      {
        config: { access: [resource, 'edit'] },
        schema: { params: idParam, response: { 200: messageOnly, '4xx': apiErrorBody }, tags: [resource, 'two-factor'] },
      },
      async (request) => {
        const target = await findMember(db, actorOf(request), request.params.id, role);
        if (!target.two_factor_at) throw conflict(TWO_FACTOR.resetNone);
        await removeSecondFactor(db, target.id);
        await revokeAllTokens(db, target.id);
        await audit(db, request, 'reset_two_factor', target, { two_factor: true }, { two_factor: false });
        return { message: TWO_FACTOR.resetDone };
      },
    );

    app.delete(
      `/${resource}/:id`,
      { config: { access: [resource, 'delete'] }, schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags } },
      async (request, reply) => {
        const actor = actorOf(request);
        const target = await findMember(db, actor, request.params.id, role);
        await inTransaction(db, async (trx) => {
          const locked = (await lockUsers(trx, [target.id])).get(target.id);
          if (!locked || locked.status === DELETED) throw notFound();
          await refuseDeleteWhileHolding(trx, locked, level.childrenLabel ?? 'user');
          // Bonus credits alone cannot be recovered: they are written off with the user.
          if (locked.bonus_credits > 0) {
            await postChanges(
              trx,
              [
                {
                  userId: locked.id,
                  type: 'RECOVERED',
                  credits: -locked.bonus_credits,
                  bonusCredits: -locked.bonus_credits,
                  counterpartyId: null,
                  remarks: 'Bonus credits removed: user deleted',
                },
              ],
              { actorId: actor.id, kind: 'user_delete' },
            );
          }
          await revokeAllTokens(trx, target.id);
          // The ledger and other history keep naming the user: then it is only marked deleted.
          await sql`savepoint delete_user`.execute(trx);
          try {
            await trx.deleteFrom('users').where('id', '=', target.id).execute();
            await sql`release savepoint delete_user`.execute(trx);
          } catch (error) {
            if (!isForeignKeyViolation(error)) throw error;
            await sql`rollback to savepoint delete_user`.execute(trx);
            await trx.updateTable('users').set({ status: DELETED, updated_at: nowIso() }).where('id', '=', target.id).execute();
          }
          await audit(trx, request, 'delete', target, snapshot(locked), null);
        });
        // No content: nothing for a response schema to shape.
        return (reply as FastifyReply).code(204).send();
      },
    );

    app.post(
      `/${resource}/:id/credits`,
      {
        config: { access: [resource, 'credits'] },
        schema: { params: idParam, body: creditMoveBody, response: { 200: messageDataOf(creditMoveResultEntity), '4xx': apiErrorBody }, tags },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const body = request.body;
        const settings = await settingsOf(app, request);
        return runCreditOperation(app, request, reply, actor, {
          prepare: async () => {
            const prepared = await creditTarget(db, actor, request.params.id, role);
            // The bonus depends on the settings, the promos and the branch's server, not on balances.
            const branchServer = prepared.show(prepared.row).server_id;
            const bonus = body.action === 'renew' ? await bonusFor(db, actor, prepared.row, body.credits, settings, branchServer) : undefined;
            return { ...prepared, bonus };
          },
          run: async (trx, prepared) => {
            const target = prepared.row;
            const result =
              body.action === 'renew'
                ? await giveCredits(trx, actor.id, target.id, body.credits, { purpose: 'add', bonusClaim: body.bonus_credits, settings, bonus: prepared.bonus })
                : await recoverCredits(trx, actor.id, target.id, body.credits);
            await recordAudit(trx, request, {
              module: 'credits',
              action: body.action === 'renew' ? 'add' : 'recover',
              entityId: target.id,
              targetUsername: target.username,
              description: `${body.action === 'renew' ? 'Added' : 'Recovered'} ${result.credits} credits${result.bonus ? ` (bonus ${body.action === 'renew' ? '+' : '-'}${result.bonus})` : ''}`,
              oldValues: { credits: result.entries.find((e) => e.user_id === target.id)?.balance_before ?? target.credits },
              newValues: { credits: result.target.credits, bonus_credits: result.target.bonus_credits, transactions: result.entries.map((e) => e.transaction_number) },
            });
            return creditResponse(result, body.action === 'renew' ? HIERARCHY.creditsAdded : HIERARCHY.creditsRecovered, prepared);
          },
        });
      },
    );

    app.get(
      `/${resource}/:id/credits/recovery-options`,
      { config: { access: [resource, 'credits'] }, schema: { params: idParam, response: { 200: dataOf(recoveryOptionsResponseEntity), '4xx': apiErrorBody }, tags } },
      async (request) => {
        const actor = actorOf(request);
        const target = await findMember(db, actor, request.params.id, role);
        if (actor.role !== 'admin' && target.parent_id !== actor.id) throw fieldError('recipient', CREDITS.recipient);
        return { data: await recoveryOptions(db, target) };
      },
    );

    level.extraRoutes?.(app, tools);
  };
}
