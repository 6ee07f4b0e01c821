/**
 * A stopped user stops its branch: with a reseller suspended, or a manager
 * deactivated, the users below cannot use their tokens, sign in, renew, create paid accounts or move
 * credits; the users above still manage the branch; end-user accounts keep their service; the lists
 * name the user that blocks; reactivating restores everything; a renewal racing the suspension either
 * commits before it or not at all; the auto-renew job waits while the owner's branch is stopped.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { AUTH } from '../../src/contract';
import { DUE_AHEAD_MS, runAutoRenew } from '../../server/jobs/autoRenew';
import { lockBranch } from '../../server/hierarchy/branch';
import { accountRow, entriesFor, setAccount, uniqueMac } from './accountFixtures';
import { DERIVED_TIMEOUT, apiRoutes, fillPath, isPublic, label, takesBody } from './apiSurface';
import { type Client, type TestContext, describeEachDatabase } from './harness';
import { type Created, PASSWORD, balance, createBranch, insertAccount, insertAccounts, uniqueName } from './hierarchyFixtures';

type Branch = Awaited<ReturnType<typeof createBranch>>;

interface Scenario {
  name: string;
  /** Who is stopped, by whom, and the users below it that must stop with it. */
  stopped: (b: Branch) => Created;
  resource: 'managers' | 'resellers';
  by: (ctx: TestContext, b: Branch) => Promise<Client>;
  stop: Record<string, unknown>;
  status: string;
  below: (b: Branch) => Created[];
}

const SCENARIOS: Scenario[] = [
  {
    name: 'reseller suspended by its manager',
    stopped: (b) => b.reseller,
    resource: 'resellers',
    by: async (_ctx, b) => b.manager.client,
    stop: { status: 'suspended' },
    status: 'suspended',
    below: (b) => [b.dealer],
  },
  {
    name: 'manager deactivated by admin',
    stopped: (b) => b.manager,
    resource: 'managers',
    by: (ctx) => ctx.as('admin'),
    stop: { is_active: false },
    status: 'inactive',
    below: (b) => [b.reseller, b.dealer],
  },
];

const refusedAsStopped = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.message).toBe(AUTH.branchSuspended);
};

const newAccount = (months?: number) => ({
  login: uniqueName('acc'),
  full_name: 'Branch Test',
  password: 'stbpass1',
  mac_address: uniqueMac(),
  ...(months ? { months } : {}),
});

async function witness(ctx: TestContext) {
  const db = ctx.db.kysely;
  if (ctx.kind === 'postgres') {
    await sql`create table branch_witness (id bigserial primary key, kind text not null, user_id integer not null)`.execute(db);
    await sql`create function branch_witness_entry() returns trigger language plpgsql as $$ begin insert into branch_witness (kind, user_id) values ('entry', new.user_id); return null; end $$`.execute(
      db,
    );
    await sql`create function branch_witness_status() returns trigger language plpgsql as $$ begin insert into branch_witness (kind, user_id) values ('status', new.id); return null; end $$`.execute(
      db,
    );
    // Deferred: they run as each transaction commits, so the ids follow the commits.
    await sql`create constraint trigger branch_witness_entry after insert on credit_transactions deferrable initially deferred for each row execute function branch_witness_entry()`.execute(
      db,
    );
    await sql`create constraint trigger branch_witness_status after update on users deferrable initially deferred for each row when (old.status is distinct from new.status) execute function branch_witness_status()`.execute(
      db,
    );
  } else {
    // SQLite runs one write transaction at a time: the order of the writes is the order of the commits.
    await sql`create table branch_witness (id integer primary key autoincrement, kind text not null, user_id integer not null)`.execute(db);
    await sql`create trigger branch_witness_entry after insert on credit_transactions begin insert into branch_witness (kind, user_id) values ('entry', new.user_id); end`.execute(
      db,
    );
    await sql`create trigger branch_witness_status after update of status on users when old.status <> new.status begin insert into branch_witness (kind, user_id) values ('status', new.id); end`.execute(
      db,
    );
  }
  return {
    rows: () =>
      db
        .selectFrom('branch_witness' as any)
        .select(['id', 'kind', 'user_id'])
        .orderBy('id')
        .execute() as Promise<Array<{ id: number; kind: string; user_id: number }>>,
    drop: async () => {
      await sql`drop trigger branch_witness_entry on credit_transactions`.execute(db).catch(() => sql`drop trigger branch_witness_entry`.execute(db));
      await sql`drop trigger branch_witness_status on users`.execute(db).catch(() => sql`drop trigger branch_witness_status`.execute(db));
      await sql`drop table branch_witness`.execute(db);
    },
  };
}

describeEachDatabase('a stopped user stops its branch', (ctx) => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: below it nobody signs in, uses a token, renews, creates paid accounts or moves credits; above it the branch is managed; reactivation restores all`, async () => {
      const branch = await createBranch(ctx, { manager: 50, reseller: 50, dealer: 40 });
      const stopped = scenario.stopped(branch);
      const below = scenario.below(branch);
      const { dealer, reseller } = branch;
      const accountId = (await dealer.client.post('/accounts', newAccount(1))).body.data.id as number;
      const expiryBefore = (await accountRow(ctx, accountId)).expiry_date;
      const by = await scenario.by(ctx, branch);

      const stop = await by.patch(`/${scenario.resource}/${stopped.id}`, scenario.stop);
      expect(stop.status, JSON.stringify(stop.body)).toBe(200);
      expect(stop.body.data.status).toBe(scenario.status);

      for (const user of below) {
        // The old token, on any route.
        refusedAsStopped(await user.client.get('/user'));
        refusedAsStopped(await user.client.get('/accounts'));
        refusedAsStopped(await user.client.get('/dashboard/stats'));
        // A new sign-in: the right password gets the branch's message, a wrong one learns nothing.
        const signIn = await ctx.anonymous.post('/login', { username: user.username, password: PASSWORD });
        expect(signIn.status).toBe(422);
        expect(signIn.body.errors.username).toEqual([AUTH.branchSuspended]);
        const wrong = await ctx.anonymous.post('/login', { username: user.username, password: 'not-the-password' });
        expect(wrong.body.errors.username).toEqual([AUTH.invalidCredentials]);
      }
      const dealerCredits = (await balance(ctx, dealer.id)).credits;
      const resellerCredits = (await balance(ctx, reseller.id)).credits;
      refusedAsStopped(await dealer.client.post(`/accounts/${accountId}/credits`, { action: 'renew', months: 1 }));
      refusedAsStopped(await dealer.client.post('/accounts', newAccount(2)));
      refusedAsStopped(await dealer.client.post('/accounts/bulk-renew', { account_ids: [accountId], months: 1 }));
      if (below.includes(reseller)) {
        refusedAsStopped(await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 }));
        refusedAsStopped(await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 5 }));
        refusedAsStopped(await reseller.client.post(`/accounts/${accountId}/credits`, { action: 'renew', months: 1 }));
      }
      expect((await balance(ctx, dealer.id)).credits).toBe(dealerCredits);
      expect((await balance(ctx, reseller.id)).credits).toBe(resellerCredits);
      // The end user keeps its service.
      expect(await accountRow(ctx, accountId)).toMatchObject({ status: 'active', expiry_date: expiryBefore, deleted_at: null });

      // Above the stopped user: the lists say who blocks, and the branch is still managed.
      const dealers = await by.get(`/dealers?per_page=100&search=${dealer.username}`);
      expect(dealers.body.data).toHaveLength(1);
      expect(dealers.body.data[0]).toMatchObject({
        id: dealer.id,
        status: 'active',
        blocked_by: { id: stopped.id, username: stopped.username, status: scenario.status },
      });
      const own = await by.get(`/${scenario.resource}/${stopped.id}`);
      expect(own.body.data.blocked_by).toBeNull();
      const recovered = await by.post(`/${scenario.resource}/${stopped.id}/credits`, { action: 'recover', credits: 5 });
      expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
      const renewedAbove = await by.post(`/accounts/${accountId}/credits`, { action: 'renew', months: 1 });
      expect(renewedAbove.status, JSON.stringify(renewedAbove.body)).toBe(200);
      expect((await balance(ctx, dealer.id)).credits).toBe(dealerCredits);

      // Active again: the same old tokens, sign-in, renewals, paid creations and moves work.
      const start = await by.patch(`/${scenario.resource}/${stopped.id}`, { is_active: true });
      expect(start.status).toBe(200);
      for (const user of below) {
        expect((await user.client.get('/user')).status).toBe(200);
        expect((await ctx.anonymous.post('/login', { username: user.username, password: PASSWORD })).status).toBe(200);
      }
      expect((await dealer.client.post(`/accounts/${accountId}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
      expect((await dealer.client.post('/accounts', newAccount(1))).status).toBe(201);
      if (below.includes(reseller)) expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 })).status).toBe(200);
      const after = await by.get(`/dealers?per_page=100&search=${dealer.username}`);
      expect(after.body.data[0].blocked_by).toBeNull();
    });
  }

  it(
    'every route refuses the tokens of the users below a deactivated manager, before anything else',
    async () => {
      const branch = await createBranch(ctx, { dealer: 10 });
      const admin = await ctx.as('admin');
      expect((await admin.patch(`/managers/${branch.manager.id}`, { is_active: false })).status).toBe(200);
      const routes = apiRoutes(ctx).filter((r) => !isPublic(r));
      expect(routes.length).toBeGreaterThan(50);
      for (const user of [branch.reseller, branch.dealer]) {
        for (const route of routes) {
          const res = await user.client.request(route.method, fillPath(route.url, branch.dealer.id), takesBody(route.method) ? {} : undefined);
          expect(res.status, `${label(route)} as ${user.username}: ${JSON.stringify(res.body)}`).toBe(401);
          expect(res.body.message, label(route)).toBe(AUTH.branchSuspended);
        }
      }
      expect((await admin.patch(`/managers/${branch.manager.id}`, { is_active: true })).status).toBe(200);
      expect((await branch.dealer.client.get('/user')).status).toBe(200);
    },
    DERIVED_TIMEOUT,
  );

  it('a dealer whose reseller is suspended while its renewals run: none of them commits after the suspension', async () => {
    const branch = await createBranch(ctx, { reseller: 10, dealer: 60 });
    const { manager, reseller, dealer } = branch;
    const accounts = await insertAccounts(ctx, dealer.id, 24);
    const w = await witness(ctx);
    try {
      const before = (await balance(ctx, dealer.id)).credits;
      const renewals = accounts.map((id) => dealer.client.post(`/accounts/${id}/credits`, { action: 'renew', months: 1 }));
      // The suspension starts while the renewals are queued or running.
      await Promise.race(renewals);
      const suspended = await manager.client.patch(`/resellers/${reseller.id}`, { status: 'suspended' });
      expect(suspended.status).toBe(200);
      const answers = await Promise.all(renewals);

      const done = answers.filter((a) => a.status === 200).length;
      for (const a of answers.filter((r) => r.status !== 200)) refusedAsStopped(a);
      expect(done).toBeGreaterThan(0);
      // Every credit spent is a renewal answered 200, and nothing more.
      expect((await balance(ctx, dealer.id)).credits).toBe(before - done);
      const rows = await w.rows();
      const suspension = rows.find((r) => r.kind === 'status' && r.user_id === reseller.id)!;
      expect(suspension).toBeDefined();
      const spent = rows.filter((r) => r.kind === 'entry' && r.user_id === dealer.id);
      expect(spent).toHaveLength(done);
      expect(spent.filter((r) => r.id > suspension.id)).toEqual([]);
      // After it, every renewal is refused.
      refusedAsStopped(await dealer.client.post(`/accounts/${accounts[0]}/credits`, { action: 'renew', months: 1 }));
    } finally {
      await w.drop();
    }
  });

  it('auto-renew charges nobody in a stopped branch, records no failure, and renews once the branch is active again', async () => {
    const branch = await createBranch(ctx, { reseller: 10, dealer: 20 });
    const { manager, reseller, dealer } = branch;
    const id = await insertAccount(ctx, dealer.id);
    const expiry = new Date(Date.now() + DUE_AHEAD_MS / 2).toISOString();
    await setAccount(ctx, id, { expiry_date: expiry, auto_renew_months: 1 });
    expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'suspended' })).status).toBe(200);

    const paused = await runAutoRenew(ctx.db.kysely);
    expect(paused.renewed).not.toContain(id);
    expect(paused.failed).not.toContain(id);
    expect(await accountRow(ctx, id)).toMatchObject({ expiry_date: expiry, auto_renew_failed_at: null, status: 'active' });
    expect((await entriesFor(ctx, id)).filter((e) => e.type === 'USED')).toHaveLength(0);

    expect((await manager.client.patch(`/resellers/${reseller.id}`, { is_active: true })).status).toBe(200);
    const resumed = await runAutoRenew(ctx.db.kysely);
    expect(resumed.renewed).toContain(id);
    expect((await entriesFor(ctx, id)).filter((e) => e.type === 'USED' && e.user_id === dealer.id)).toHaveLength(1);
  });

  it('auto-renew that picked an account before the suspension committed charges nothing after it', async () => {
    const branch = await createBranch(ctx, { reseller: 10, dealer: 20 });
    const { reseller, dealer } = branch;
    const id = await insertAccount(ctx, dealer.id);
    await setAccount(ctx, id, { expiry_date: new Date(Date.now() + DUE_AHEAD_MS / 2).toISOString(), auto_renew_months: 1 });
    const row = await ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', reseller.id).executeTakeFirstOrThrow();
    // The status change as the route makes it, held open while the job starts.
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const suspension = ctx.db.kysely.transaction().execute(async (trx) => {
      await lockBranch(trx, row);
      await trx.updateTable('users').set({ status: 'suspended' }).where('id', '=', reseller.id).execute();
      locked();
      await gate;
    });
    await held;
    const job = runAutoRenew(ctx.db.kysely);
    if (ctx.kind === 'postgres') {
      // The job waits on the dealer's row, which the suspension holds.
      await expect
        .poll(
          async () =>
            (
              await sql<{
                n: number;
              }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query ilike '%for no key update%'`.execute(
                ctx.db.kysely,
              )
            ).rows[0].n,
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
    }
    commit();
    await suspension;
    const report = await job;
    expect(report.renewed).not.toContain(id);
    expect(report.failed).not.toContain(id);
    expect(await accountRow(ctx, id)).toMatchObject({ auto_renew_failed_at: null });
    expect((await entriesFor(ctx, id)).filter((e) => e.type === 'USED')).toHaveLength(0);
  });

  it('a user moved under a stopped parent is stopped with it; its own status is unchanged', async () => {
    const admin = await ctx.as('admin');
    const a = await createBranch(ctx, { dealer: 10 });
    const b = await createBranch(ctx);
    expect((await admin.patch(`/managers/${b.manager.id}`, { is_active: false })).status).toBe(200);
    const moved = await admin.put(`/resellers/${a.reseller.id}`, { manager: b.manager.id, password: null });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ status: 'active', blocked_by: { id: b.manager.id, role: 'manager', status: 'inactive' } });
    refusedAsStopped(await a.dealer.client.get('/user'));
    refusedAsStopped(await a.reseller.client.post('/dealers', { name: 'Another', username: uniqueName('dlr'), password: PASSWORD, credits: 0 }));
  });
});
