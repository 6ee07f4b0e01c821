/**
 * End-user accounts: list, create (bought for months, as a trial, or empty), show,
 * update, status, delete, device reset and info, ledger entries, renew / recover, auto-renew and the
 * bulk calls. Every account lies in its owner's subtree; anything outside the caller's answers 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, Transaction } from 'kysely';
import {
  ACCOUNTS,
  type Account,
  type AccountMessage,
  HIERARCHY,
  LISTS,
  type RenewalResult,
  type Role,
  type UserRef,
  accountCreateBody,
  accountCreditAnswer,
  accountEntity,
  accountMessageEntity,
  apiErrorBody,
  bulkMessageResultEntity,
  bulkRenewResultEntity,
  bulkStatusResultEntity,
  dataOf,
  messageDataOf,
  noContent,
  paginatedOf,
  stbInfoEntity,
  accountCreditsBody,
  accountUpdateBody,
  autoRenewBody,
  bulkAccountsBody,
  bulkMessageBody,
  bulkRenewBody,
  idParam,
  userStatusBody,
  plural,
  settingNumberOrFallback,
} from '../../src/contract';
import { addDays } from '../accounts/dates';
import { accountListSpec, accountsQuerystring, accountsRun } from '../accounts/list';
import { recoverLocked, renewLocked, renewMany } from '../accounts/renewal';
import {
  type AccountJoined,
  type Actor,
  findAccount,
  loadAccount,
  loadAccounts,
  lockAccount,
  newAccountRow,
  lockAccounts,
  scopedAccounts,
  toAccount,
} from '../accounts/store';
import { checkTrial, claimTrialDevice, claimTrialQuota } from '../accounts/trials';
import { checkAccountCaps, checkTrialCaps } from '../hierarchy/caps';
import { recordAudit, recordAudits } from '../audit';
import { type OperationResult, rateLimitMiddlewareWrites, runCreditOperation } from './creditOperation';
import type { AccountRow, Database, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso, parseJson } from '../db/values';
import { fieldError, notFound, validationError } from '../http/errors';
import { actorOf } from '../http/guard';
import { listQuerystring, listSpec, paginate, respondList } from '../http/list';
import { type PostedEntry, postChanges } from '../ledger/post';
import type { Provisioners } from '../provisioning';
import { deleteAccountEverywhere } from '../provisioning/accounts';
import { branchServerId } from '../hierarchy/branch';
import { settingsOf } from '../settings';

const tags = ['accounts'];

/** What the audit log keeps of an account (the device password never reaches it). */
const auditView = (row: AccountRow) => ({
  login: row.login,
  full_name: row.full_name,
  mac_address: row.mac_address,
  server_id: row.server_id,
  expiry_date: row.expiry_date,
  status: row.status,
  is_trial: row.is_trial,
  auto_renew_months: row.auto_renew_months,
  auto_renew_end_date: row.auto_renew_end_date,
});

/** A unique index refused the write: the MAC address or login is already used on that server. */
function uniqueViolationField(error: unknown): 'mac_address' | 'login' | null {
  const e = error as { code?: string; message?: string; constraint?: string };
  const text = `${e?.constraint ?? ''} ${e?.message ?? ''}`;
  if (e?.code !== '23505' && !/UNIQUE constraint failed/.test(text)) return null;
  if (/mac/.test(text)) return 'mac_address';
  if (/login/.test(text)) return 'login';
  return null;
}
const uniqueError = (field: 'mac_address' | 'login') => fieldError(field, field === 'mac_address' ? ACCOUNTS.macTaken : ACCOUNTS.loginTaken);

/**
 * The login and MAC address must be free on the server: among the panel's accounts, and among the
 * subscribers of the server's middleware (`fresh`: the values this request sets anew).
 */
async function checkUnique(
  db: Kysely<Database>,
  provisioners: Provisioners,
  serverId: number,
  fields: { mac?: string; login?: string },
  except?: Pick<AccountRow, 'id' | 'middleware_id'>,
  fresh: { mac?: string; login?: string } = fields,
) {
  const errors: Record<string, string> = {};
  const taken = async (column: 'mac_address' | 'login', value: string) => {
    let q = db.selectFrom('accounts').select('id').where('server_id', '=', serverId).where(column, '=', value).where('deleted_at', 'is', null);
    if (except) q = q.where('id', '!=', except.id);
    return Boolean(await q.executeTakeFirst());
  };
  if (fields.login && (await taken('login', fields.login))) errors.login = ACCOUNTS.loginTaken;
  if (fields.mac && (await taken('mac_address', fields.mac))) errors.mac_address = ACCOUNTS.macTaken;
  const middleware = await (
    await provisioners.forServer(serverId)
  ).taken({ mac: errors.mac_address ? undefined : fresh.mac, login: errors.login ? undefined : fresh.login }, except?.middleware_id ?? null);
  if (middleware.login) errors.login = ACCOUNTS.loginTaken;
  if (middleware.mac) errors.mac_address = ACCOUNTS.macTaken;
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * The server an account of the caller's may live on: the one asked for, which for a non-admin must be
 * its branch's server (when the branch has one); else the branch's server.
 */
async function resolveServer(db: Kysely<Database>, actor: UserRow, requested: number | undefined): Promise<number> {
  const branch = await branchServerId(db, actor);
  const serverId = requested ?? branch;
  if (serverId === null || serverId === undefined) throw fieldError('server_id', ACCOUNTS.serverRequired);
  if (actor.role !== 'admin' && branch !== null && serverId !== branch) throw fieldError('server_id', HIERARCHY.serverInvalid);
  const server = await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst();
  if (!server) throw fieldError('server_id', HIERARCHY.serverInvalid);
  return serverId;
}

const statusFrom = (body: { status?: string; is_active?: boolean }): string | undefined =>
  body.status ?? (body.is_active === undefined ? undefined : body.is_active ? 'active' : 'inactive');

/** The caller's balance now: from the entries just posted when one is the caller's, else read. */
async function currentCredits(db: Kysely<Database>, actor: UserRow, posted: PostedEntry[] = []): Promise<number | null> {
  if (actor.role === 'admin') return null;
  const mine = posted.filter((e) => e.user_id === actor.id).at(-1);
  if (mine) return mine.balance_after;
  const row = await db.selectFrom('users').select('credits').where('id', '=', actor.id).executeTakeFirstOrThrow();
  return row.credits;
}

type Named = { id: number; name: string; username: string; role: string };
const ref = (user: Named | undefined): UserRef | null => (user ? { id: user.id, name: user.name, username: user.username, role: user.role as Role } : null);

const messageSpec = listSpec(LISTS['account-messages'], { filters: {}, sorts: { created_at: 'm.created_at', id: 'm.id' }, idColumn: 'm.id' });

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const { provisioners } = app;
  const show = async (trx: Kysely<Database>, id: number, viewer: UserRow): Promise<Account> => toAccount(await loadAccount(trx, id), viewer.role);

  app.get(
    '/accounts',
    { config: { access: ['accounts', 'list'] }, schema: { querystring: accountsQuerystring, response: { 200: paginatedOf(accountEntity), '4xx': apiErrorBody }, tags } },
    async (request, reply) =>
      respondList(request, reply, await accountsRun(db, actorOf(request), request.query as Record<string, unknown>, accountListSpec), (page) => page),
  );

  app.post(
    '/accounts',
    { config: { access: ['accounts', 'create'] }, schema: { body: accountCreateBody, response: { 201: accountCreditAnswer, '4xx': apiErrorBody }, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      const body = request.body;
      // Settles first what an earlier attempt with this Idempotency-Key left pending (its subscriber).
      const outcome = await provisioners.outcome('create', actor.id, request);
      const precheck = async () => {
        if (body.expiry_date && actor.role !== 'admin') throw fieldError('expiry_date', ACCOUNTS.expiryAdminOnly);
        const serverId = await resolveServer(db, actor, body.server_id);
        const settings = await settingsOf(app, request);
        if (body.is_trial) {
          if (!settings.enable_trials) throw fieldError('is_trial', ACCOUNTS.trialsDisabled);
          const minimum = Number(settings.minimum_credits_trial_user_creation) || 0;
          if (actor.role !== 'admin' && minimum > 0 && ((await currentCredits(db, actor)) ?? 0) < minimum) {
            throw fieldError('credits', HIERARCHY.minimumToCreate(minimum, ACCOUNTS.trialWhat));
          }
          await checkTrial(db, actor.id, body.mac_address, settings);
        }
        await checkUnique(db, provisioners, serverId, { mac: body.mac_address, login: body.login });
        return { serverId, settings };
      };

      const create = async (trx: Transaction<Database>, { serverId, settings }: Awaited<ReturnType<typeof precheck>>): Promise<OperationResult> => {
        const { now } = outcome;
        await checkAccountCaps(trx, actor.path, [null]);
        if (body.is_trial) {
          await claimTrialQuota(trx, actor.id, settings, now);
          await checkTrialCaps(trx, actor.path);
        }
        const trialDays = settingNumberOrFallback('trial-days', settings.trial_days);
        const { id } = await trx
          .insertInto('accounts')
          .values(
            newAccountRow({
              owner_id: actor.id,
              owner_path: actor.path,
              server_id: serverId,
              login: body.login,
              full_name: body.full_name,
              pwd_txt: body.password,
              mac_address: body.mac_address,
              expiry_date: body.is_trial ? addDays(now, trialDays).toISOString() : (body.expiry_date ?? null),
              status: statusFrom(body) ?? 'active',
              is_trial: body.is_trial ? 1 : 0,
              created_at: now.toISOString(),
            }),
          )
          .returning('id')
          .executeTakeFirstOrThrow();

        let renewal: RenewalResult | null = null;
        let posted: PostedEntry[] = [];
        if (body.is_trial) {
          await claimTrialDevice(trx, body.mac_address, id, settings, now);
          await postChanges(
            trx,
            [
              {
                userId: actor.id,
                type: 'TRIAL',
                credits: 0,
                accountId: id,
                coverageStart: now.toISOString(),
                remarks: `Trial account ${body.login} for ${plural(trialDays, 'day')}`,
              },
            ],
            { actorId: actor.id, kind: 'trial' },
          );
        } else if (body.months) {
          const locked = await lockAccount(trx, actor, id);
          const renewed = await renewLocked(trx, locked, body.months, actor, { actorId: actor.id, now, settings });
          renewal = renewed.result;
          posted = renewed.entries;
        }
        outcome.mirror([id], { fresh: true });
        const created = await loadAccount(trx, id);
        await recordAudit(trx, request, {
          module: 'accounts',
          action: 'create',
          entityId: id,
          targetUsername: created.login,
          description: body.is_trial
            ? 'Trial account created'
            : renewal
              ? `Created and renewed for ${plural(renewal.months, 'month')}, ${plural(renewal.credits, 'credit')}`
              : null,
          newValues: auditView(created),
        });
        return {
          status: 201,
          body: { message: ACCOUNTS.created, data: toAccount(created, actor.role), renewal, user_credits: await currentCredits(trx, actor, posted) },
        };
      };
      try {
        // Buying months or starting a trial is a credit operation (Idempotency-Key, rate limit); an empty account is not.
        if (body.months || body.is_trial)
          return await runCreditOperation(app, request, reply, actor, { prepare: precheck, run: create, transact: (work) => outcome.transact(work) });
        const prepared = await precheck();
        await rateLimitMiddlewareWrites(app, actor);
        const answer = await outcome.transact((trx) => create(trx, prepared));
        // Sent, not returned: the reply is a thenable.
        (reply as FastifyReply).code(answer.status).send(answer.body);
      } catch (error) {
        const field = uniqueViolationField(error);
        if (field) throw uniqueError(field);
        throw error;
      }
    },
  );

  app.get(
    '/accounts/:id',
    { config: { access: ['accounts', 'show'] }, schema: { params: idParam, response: { 200: dataOf(accountEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      return { data: toAccount(await findAccount(db, actor, request.params.id), actor.role) };
    },
  );

  app.put(
    '/accounts/:id',
    {
      config: { access: ['accounts', 'edit'] },
      schema: { params: idParam, body: accountUpdateBody, response: { 200: messageDataOf(accountEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await findAccount(db, actor, request.params.id);
      await rateLimitMiddlewareWrites(app, actor);
      const body = request.body;
      if (body.expiry_date !== undefined && actor.role !== 'admin' && body.expiry_date !== before.expiry_date) {
        throw fieldError('expiry_date', ACCOUNTS.expiryAdminOnly);
      }
      const serverId = body.server_id !== undefined && body.server_id !== before.server_id ? await resolveServer(db, actor, body.server_id) : before.server_id;
      const moved = serverId !== before.server_id;
      if (serverId !== null) {
        const changed = (value: string | undefined, old: string) => (value !== undefined && (moved || value !== old) ? value : undefined);
        await checkUnique(
          db,
          provisioners,
          serverId,
          { mac: body.mac_address ?? before.mac_address, login: body.login ?? before.login },
          before,
          moved
            ? { mac: body.mac_address ?? before.mac_address, login: body.login ?? before.login }
            : { mac: changed(body.mac_address, before.mac_address), login: changed(body.login, before.login) },
        );
      }
      const status = statusFrom(body);
      // A trial account moved onto another device is that device's trial.
      const trialMoved = Boolean(before.is_trial) && body.mac_address !== undefined && body.mac_address !== before.mac_address;
      const settings = trialMoved ? await settingsOf(app, request) : null;
      try {
        const outcome = await provisioners.outcome('update', actor.id);
        await outcome.transact(async (trx) => {
          if (trialMoved) await claimTrialDevice(trx, body.mac_address!, before.id, settings!, outcome.now);
          await trx
            .updateTable('accounts')
            .set({
              ...(body.login !== undefined ? { login: body.login } : {}),
              ...(body.full_name !== undefined ? { full_name: body.full_name } : {}),
              ...(body.password ? { pwd_txt: body.password } : {}),
              ...(body.mac_address !== undefined ? { mac_address: body.mac_address } : {}),
              ...(body.expiry_date !== undefined && actor.role === 'admin' ? { expiry_date: body.expiry_date } : {}),
              ...(status !== undefined ? { status } : {}),
              // A subscriber belongs to one middleware: moving servers starts a new one there.
              ...(moved ? { middleware_id: null } : {}),
              server_id: serverId,
              updated_at: nowIso(),
            })
            .where('id', '=', before.id)
            .execute();
          if (moved) outcome.unmirror(before);
          outcome.mirror([before.id]);
        });
      } catch (error) {
        const field = uniqueViolationField(error);
        if (field) throw uniqueError(field);
        throw error;
      }
      const after = await loadAccount(db, before.id);
      await recordAudit(db, request, {
        module: 'accounts',
        action: 'update',
        entityId: before.id,
        targetUsername: after.login,
        description: body.password ? 'Device password changed' : null,
        oldValues: auditView(before),
        newValues: auditView(after),
      });
      return { message: ACCOUNTS.updated, data: toAccount(after, actor.role) };
    },
  );

  app.patch(
    '/accounts/:id',
    {
      config: { access: ['accounts', 'status'] },
      schema: { params: idParam, body: userStatusBody, response: { 200: messageDataOf(accountEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await findAccount(db, actor, request.params.id);
      await rateLimitMiddlewareWrites(app, actor);
      const status = statusFrom(request.body)!;
      const outcome = await provisioners.outcome('status', actor.id);
      await outcome.transact(async (trx) => {
        await trx.updateTable('accounts').set({ status, updated_at: nowIso() }).where('id', '=', before.id).execute();
        outcome.mirror([before.id]);
      });
      await recordAudit(db, request, {
        module: 'accounts',
        action: 'status',
        entityId: before.id,
        targetUsername: before.login,
        oldValues: { status: before.status },
        newValues: { status },
      });
      return { message: HIERARCHY.statusUpdated, data: await show(db, before.id, actor) };
    },
  );

  app.delete(
    '/accounts/:id',
    { config: { access: ['accounts', 'delete'] }, schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      const before = await findAccount(db, actor, request.params.id);
      await rateLimitMiddlewareWrites(app, actor);
      await deleteAccountEverywhere(provisioners, db, before, actor.id);
      await recordAudit(db, request, { module: 'accounts', action: 'delete', entityId: before.id, targetUsername: before.login, oldValues: auditView(before) });
      // No content: nothing for a response schema to shape.
      return (reply as FastifyReply).code(204).send();
    },
  );

  app.post(
    '/accounts/:id/reset-device',
    { config: { access: ['accounts', 'edit'] }, schema: { params: idParam, response: { 200: messageDataOf(accountEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      const before = await findAccount(db, actor, request.params.id);
      await rateLimitMiddlewareWrites(app, actor);
      // What binds the account to one box (middleware notes): address, device identity, session. The
      // middleware first, outside any panel transaction; the panel's columns only echo the box, so a
      // panel write that fails after it leaves nothing that costs money or service.
      await (await provisioners.forServer(before.server_id)).resetDevice(before);
      await db
        .updateTable('accounts')
        .set({ ip_address: null, device_info: null, state: 'offline', connection_status: 'offline', updated_at: nowIso() })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'accounts',
        action: 'reset_device',
        entityId: before.id,
        targetUsername: before.login,
        oldValues: { ip_address: before.ip_address, device_info: parseJson(before.device_info, null), state: before.state },
      });
      return { message: ACCOUNTS.deviceReset, data: await show(db, before.id, actor) };
    },
  );

  app.get(
    '/accounts/:id/stb-info',
    { config: { access: ['accounts', 'show'] }, schema: { params: idParam, response: { 200: dataOf(stbInfoEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const row = await findAccount(db, actorOf(request), request.params.id);
      const device = parseJson<Record<string, unknown>>(row.device_info, {});
      const text = (key: string) => (typeof device[key] === 'string' || typeof device[key] === 'number' ? String(device[key]) : null);
      // A server with a middleware knows the box; the panel's columns are what the local driver has.
      const box = await (await provisioners.forServer(row.server_id)).device(row);
      const online = box ? box.online : row.state === 'online';
      return {
        data: {
          account_id: row.id,
          login: row.login,
          mac_address: toAccount(row, 'admin').mac_address,
          state: online ? ('online' as const) : ('offline' as const),
          connection_status: box ? (online ? 'online' : 'offline') : row.connection_status,
          last_active: box ? box.last_active : row.last_active,
          ip_address: box ? box.ip_address : row.ip_address,
          stb_type: box ? box.stb_type : text('stb_type'),
          serial_number: box ? box.serial_number : text('serial_number'),
          version: box ? box.version : text('version'),
          image_version: box ? box.image_version : text('image_version'),
          hw_version: box ? box.hw_version : text('hw_version'),
          device_id: box ? box.device_id : text('device_id'),
          server: row.server_id !== null ? { id: row.server_id, name: row.server_name ?? '' } : null,
        },
      };
    },
  );

  app.post(
    '/accounts/:id/credits',
    {
      config: { access: ['accounts', 'credits'] },
      schema: { params: idParam, body: accountCreditsBody, response: { 200: accountCreditAnswer, '4xx': apiErrorBody }, tags },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { action, months } = request.body;
      const outcome = await provisioners.outcome(action === 'renew' ? 'renew' : 'recover', actor.id, request);
      return runCreditOperation(app, request, reply, actor, {
        prepare: () => findAccount(db, actor, request.params.id),
        transact: (work) => outcome.transact(work),
        run: async (trx, found) => {
          const locked = await lockAccount(trx, actor, request.params.id);
          const options = { actorId: actor.id, now: outcome.now, settings: await settingsOf(app, request) };
          const done = action === 'renew' ? await renewLocked(trx, locked, months, actor, options) : await recoverLocked(trx, locked, months, actor, options);
          const { result } = done;
          outcome.mirror([locked.id]);
          await recordAudit(trx, request, {
            module: 'accounts',
            action: action === 'renew' ? 'renew' : 'recover',
            entityId: locked.id,
            targetUsername: locked.login,
            description:
              action === 'renew'
                ? `Renewed ${locked.login} for ${plural(months, 'month')}: ${plural(result.credits, 'credit')}`
                : `Recovered ${plural(months, 'month')} from ${locked.login}: ${plural(result.credits, 'credit')} refunded`,
            oldValues: { expiry_date: locked.expiry_date },
            newValues: {
              expiry_date: action === 'renew' ? result.coverage_end : result.coverage_start,
              credits: result.credits,
              transaction_number: result.transaction_number,
            },
          });
          return {
            status: 200,
            body: {
              message: action === 'renew' ? ACCOUNTS.renewed : ACCOUNTS.recovered,
              // The owner's and the server's names as read before the transaction, unless either moved meanwhile.
              data:
                found.owner_id === done.account.owner_id && found.server_id === done.account.server_id
                  ? toAccount({ ...found, ...done.account }, actor.role)
                  : await show(trx, locked.id, actor),
              renewal: result,
              user_credits: await currentCredits(trx, actor, done.entries),
            },
          };
        },
      });
    },
  );

  app.post(
    '/accounts/:id/auto-renew',
    {
      config: { access: ['accounts', 'edit'] },
      schema: { params: idParam, body: autoRenewBody, response: { 200: messageDataOf(accountEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await findAccount(db, actor, request.params.id);
      const months = request.body.months || null;
      const endDate = months ? (request.body.auto_renew_end_date ?? null) : null;
      // Enabling (again) clears an earlier failure, so the scheduler tries once more.
      await db
        .updateTable('accounts')
        .set({ auto_renew_months: months, auto_renew_end_date: endDate, auto_renew_failed_at: null, auto_renew_error: null, updated_at: nowIso() })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'accounts',
        action: 'auto_renew',
        entityId: before.id,
        targetUsername: before.login,
        oldValues: { auto_renew_months: before.auto_renew_months, auto_renew_end_date: before.auto_renew_end_date },
        newValues: { auto_renew_months: months, auto_renew_end_date: endDate },
      });
      return { message: months ? ACCOUNTS.autoRenewEnabled : ACCOUNTS.autoRenewDisabled, data: await show(db, before.id, actor) };
    },
  );

  /** Every id must be one of the caller's live accounts, or the whole call is a 404. */
  async function scopedIds(q: Kysely<Database>, actor: Actor, ids: number[]): Promise<AccountJoined[]> {
    const rows = (await scopedAccounts(q, actor)
      .selectAll('a')
      .select(['o.name as owner_name', 'o.username as owner_username', 'o.role as owner_role', 's.name as server_name'])
      .where('a.id', 'in', ids)
      .execute()) as AccountJoined[];
    if (rows.length !== ids.length) throw notFound();
    return rows;
  }

  const bulkStatus = (status: 'active' | 'suspended', verb: 'suspended' | 'activated') => async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const { account_ids } = request.body as { account_ids: number[] };
    const rows = await scopedIds(db, actor, account_ids);
    await rateLimitMiddlewareWrites(app, actor);
    const outcome = await provisioners.outcome('bulk_status', actor.id);
    await outcome.transact(async (trx) => {
      await trx.updateTable('accounts').set({ status, updated_at: nowIso() }).where('id', 'in', account_ids).execute();
      outcome.mirror(account_ids);
      for (const row of rows) {
        await recordAudit(trx, request, {
          module: 'accounts',
          action: status === 'active' ? 'bulk_activate' : 'bulk_suspend',
          entityId: row.id,
          targetUsername: row.login,
          oldValues: { status: row.status },
          newValues: { status },
        });
      }
    });
    return { message: ACCOUNTS.bulkDone(rows.length, verb), data: { updated: rows.length, account_ids } };
  };
  app.post(
    '/accounts/bulk-suspend',
    {
      config: { access: ['accounts', 'status'] },
      schema: { body: bulkAccountsBody, response: { 200: messageDataOf(bulkStatusResultEntity), '4xx': apiErrorBody }, tags },
    },
    bulkStatus('suspended', 'suspended'),
  );
  app.post(
    '/accounts/bulk-activate',
    {
      config: { access: ['accounts', 'status'] },
      schema: { body: bulkAccountsBody, response: { 200: messageDataOf(bulkStatusResultEntity), '4xx': apiErrorBody }, tags },
    },
    bulkStatus('active', 'activated'),
  );

  app.post(
    '/accounts/bulk-renew',
    { config: { access: ['accounts', 'credits'] }, schema: { body: bulkRenewBody, response: { 200: messageDataOf(bulkRenewResultEntity), '4xx': apiErrorBody }, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { account_ids, months } = request.body;
      // All or nothing: one transaction; any refusal rolls every renewal back.
      const outcome = await provisioners.outcome('bulk_renew', actor.id, request);
      return runCreditOperation(app, request, reply, actor, {
        prepare: async () => {
          await scopedIds(db, actor, account_ids);
        },
        transact: (work) => outcome.transact(work),
        run: async (trx) => {
          const locked = await lockAccounts(trx, actor, account_ids);
          const { renewed, entries } = await renewMany(trx, locked, months, actor, {
            actorId: actor.id,
            now: outcome.now,
            // Name the account whose renewal was refused.
            onRefused: (account, message) => fieldError('months', `${account.login}: ${message}`),
          });
          await recordAudits(
            trx,
            request,
            renewed.map(({ account, result }, i) => ({
              module: 'accounts',
              action: 'bulk_renew',
              entityId: account.id,
              targetUsername: account.login,
              description: `Renewed ${account.login} for ${plural(months, 'month')}: ${plural(result.credits, 'credit')}`,
              oldValues: { expiry_date: locked[i].expiry_date },
              newValues: { expiry_date: result.coverage_end },
            })),
          );
          outcome.mirror(account_ids);
          const renewals = renewed.map((r) => r.result);
          const accounts = (await loadAccounts(trx, account_ids)).map((row) => toAccount(row, actor.role));
          return {
            status: 200,
            body: {
              message: ACCOUNTS.bulkDone(renewals.length, 'renewed'),
              data: { accounts, renewals, credits: renewals.reduce((sum, r) => sum + r.credits, 0), user_credits: await currentCredits(trx, actor, entries) },
            },
          };
        },
      });
    },
  );

  app.post(
    '/accounts/bulk-message',
    {
      config: { access: ['accounts', 'message'] },
      schema: { body: bulkMessageBody, response: { 200: messageDataOf(bulkMessageResultEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const { account_ids, message } = request.body;
      const rows = await scopedIds(db, actor, account_ids);
      const now = nowIso();
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('account_messages')
          .values(rows.map((row) => ({ account_id: row.id, sender_id: actor.id, message, created_at: now })))
          .execute();
        await recordAudit(trx, request, {
          module: 'accounts',
          action: 'bulk_message',
          description: `Message sent to ${plural(rows.length, 'account')}: ${rows
            .map((r) => r.login)
            .join(', ')
            .slice(0, 500)}`,
          newValues: { account_ids, message },
        });
      });
      return { message: ACCOUNTS.bulkDone(rows.length, 'messaged'), data: { sent: rows.length, account_ids } };
    },
  );

  app.get(
    '/accounts/:id/messages',
    {
      config: { access: ['accounts', 'show'] },
      schema: { params: idParam, querystring: listQuerystring(messageSpec), response: { 200: paginatedOf(accountMessageEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const account = await findAccount(db, actorOf(request), request.params.id);
      type Row = {
        id: number;
        account_id: number;
        message: string;
        created_at: string;
        s_id: number | null;
        s_name: string | null;
        s_username: string | null;
        s_role: string | null;
      };
      const base = db.selectFrom('account_messages as m').leftJoin('users as s', 's.id', 'm.sender_id').where('m.account_id', '=', account.id);
      return paginate<Row, AccountMessage>(
        base,
        request.query as Record<string, unknown>,
        messageSpec,
        (qb) => qb.select(['m.id', 'm.account_id', 'm.message', 'm.created_at', 's.id as s_id', 's.name as s_name', 's.username as s_username', 's.role as s_role']),
        (r) => ({
          id: r.id,
          account_id: r.account_id,
          message: r.message,
          created_at: r.created_at,
          sender: r.s_id !== null ? ref({ id: r.s_id, name: r.s_name!, username: r.s_username!, role: r.s_role! }) : null,
        }),
      );
    },
  );
};

export default accountRoutes;
