import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { AUTH, CREDITS, ENTITY_FORM, HIERARCHY } from '../../src/contract';
import { inTransaction } from '../../server/db/transaction';
import { postChanges } from '../../server/ledger/post';
import { updateSystemSettings } from '../../server/settings';
import { describeEachDatabase, userId } from './harness';
import { PASSWORD, allKeys, balance, createBranch, createDealer, createManager, createReseller, insertAccount, lastAudit, uniqueName } from './hierarchyFixtures';

describeEachDatabase('hierarchy: managers, resellers, dealers', (ctx) => {
  beforeAll(async () => {
    // Balances here are exact; bonus credits have their own tests in credits.test.ts.
    await updateSystemSettings(ctx.db.kysely, { enable_promos: false });
  });

  it('admin creates a manager with minted credits and a server; no password comes back', async () => {
    const admin = await ctx.as('admin');
    const username = uniqueName('mgr');
    const res = await admin.post('/managers', { name: 'New Manager', username, password: PASSWORD, credits: 150, server_id: 2 });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(HIERARCHY.created('Manager'));
    expect(res.body.data).toMatchObject({
      name: 'New Manager',
      username,
      role: 'manager',
      credits: 150,
      bonus_credits: 0,
      is_active: true,
      status: 'active',
      server_id: 2,
      server: { id: 2, name: 'Backup Server' },
      parent: null,
      total_children: 0,
      total_accounts: 0,
    });
    expect(allKeys(res.body).filter((k) => /pass|pwd|hash/i.test(k))).toEqual([]);

    const entries = await ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', res.body.data.id).execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: 'PURCHASED', credits: 150, balance_before: 0, balance_after: 150, counterparty_id: await userId(ctx, 'admin') });

    const shown = await admin.get(`/managers/${res.body.data.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.username).toBe(username);
    const audit = await lastAudit(ctx, 'managers', 'create', res.body.data.id);
    expect(audit).toMatchObject({ username: 'admin', target_username: username });
    expect(audit!.new_values).toContain('"initial_credits":150');
    expect(audit!.new_values ?? '').not.toContain(PASSWORD);
  });

  it('answers the manager page messages for a bad create', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.post('/managers', { credits: -1 });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      name: [ENTITY_FORM.managerNameRequired],
      username: [ENTITY_FORM.usernameRequired],
      password: [ENTITY_FORM.passwordRequiredManagers],
      credits: [ENTITY_FORM.creditsPositive],
    });
    const taken = await admin.post('/managers', { name: 'X', username: 'MANAGER', password: PASSWORD });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.username).toEqual([ENTITY_FORM.usernameTaken]);
    const server = await admin.post('/managers', { name: 'X', username: uniqueName('m'), password: PASSWORD, server_id: 999 });
    expect(server.body.errors.server_id).toEqual([HIERARCHY.serverInvalid]);
    const short = await admin.post('/managers', { name: 'X', username: uniqueName('m'), password: 'short' });
    expect(short.body.errors.password).toEqual([HIERARCHY.passwordTooShort]);
    const cap = await admin.post('/managers', { name: 'X', username: uniqueName('m'), password: PASSWORD, credits: 10_001 });
    expect(cap.status).toBe(422);
    expect(cap.body.errors.credits).toEqual(['Admin allocation cannot exceed 10,000 credits']);
  });

  it('lists managers with search, is_active filter and sort, and refuses unknown filters', async () => {
    const admin = await ctx.as('admin');
    const a = await createManager(ctx, 5);
    const b = await createManager(ctx, 7);
    await admin.patch(`/managers/${b.id}`, { is_active: false });
    const found = await admin.get(`/managers?filter[search]=${a.username}`);
    expect(found.body.data.map((m: { id: number }) => m.id)).toEqual([a.id]);
    const inactive = await admin.get('/managers?filter[is_active]=false&per_page=50');
    expect(inactive.body.data.map((m: { id: number }) => m.id)).toContain(b.id);
    expect(inactive.body.data.every((m: { is_active: boolean }) => !m.is_active)).toBe(true);
    const sorted = await admin.get('/managers?sort=credits&order=desc&per_page=50');
    const credits = sorted.body.data.map((m: { credits: number }) => m.credits);
    expect(credits).toEqual([...credits].sort((x: number, y: number) => y - x));
    expect(sorted.body.meta.total).toBeGreaterThanOrEqual(4);
    const bad = await admin.get('/managers?filter[password]=x');
    expect(bad.status).toBe(400);
  });

  it('updates a manager: empty password keeps it, a new one signs the user out, username is validated', async () => {
    const admin = await ctx.as('admin');
    const m = await createManager(ctx);
    const keep = await admin.put(`/managers/${m.id}`, { name: 'Renamed', server_id: 2, is_active: true, password: '' });
    expect(keep.status).toBe(200);
    expect(keep.body.data).toMatchObject({ name: 'Renamed', server_id: 2 });
    expect((await m.client.get('/user')).status).toBe(200);
    expect((await ctx.anonymous.post('/login', { username: m.username, password: PASSWORD })).status).toBe(200);

    const changed = await admin.put(`/managers/${m.id}`, { password: 'newpassword1' });
    expect(changed.status).toBe(200);
    expect((await m.client.get('/user')).status).toBe(401);
    expect((await ctx.anonymous.post('/login', { username: m.username, password: 'newpassword1' })).status).toBe(200);
    const audits = await ctx.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('module', '=', 'managers')
      .where('action', '=', 'update')
      .where('entity_id', '=', m.id)
      .orderBy('id')
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits[0].old_values).toContain('"name":"Manager ');
    expect(audits[0].new_values).toContain('"name":"Renamed"');
    expect(audits[1].new_values).toContain('"password_changed"');
    expect(audits[1].new_values).not.toContain('newpassword1');

    const dup = await admin.put(`/managers/${m.id}`, { username: 'reseller' });
    expect(dup.body.errors.username).toEqual([ENTITY_FORM.usernameTaken]);
  });

  it('deactivating revokes tokens and blocks sign-in; suspended is not a manager status', async () => {
    const admin = await ctx.as('admin');
    const m = await createManager(ctx);
    const off = await admin.patch(`/managers/${m.id}`, { is_active: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ is_active: false, status: 'inactive' });
    expect((await m.client.get('/user')).status).toBe(401);
    const login = await ctx.anonymous.post('/login', { username: m.username, password: PASSWORD });
    expect(login.status).toBe(422);
    expect(login.body.errors.username).toEqual([AUTH.accountDisabled]);
    expect(await lastAudit(ctx, 'managers', 'status', m.id)).toMatchObject({ old_values: '{"status":"active"}', new_values: '{"status":"inactive"}' });
    expect((await admin.patch(`/managers/${m.id}`, { status: 'suspended' })).status).toBe(422);
    expect((await admin.patch(`/managers/${m.id}`, {})).status).toBe(422);
    const on = await admin.patch(`/managers/${m.id}`, { is_active: true });
    expect(on.body.data.status).toBe('active');
  });

  it('admin puts a reseller under a chosen manager; a manager under itself only', async () => {
    const admin = await ctx.as('admin');
    const m = await createManager(ctx, 100);
    const missing = await admin.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD });
    expect(missing.body.errors.manager).toEqual([HIERARCHY.managerRequired]);
    const wrong = await admin.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD, manager: await userId(ctx, 'reseller') });
    expect(wrong.body.errors.manager).toEqual([HIERARCHY.managerInvalid]);
    const byAdmin = await createReseller(ctx, admin, 10, { manager: m.id });
    const row = await admin.get(`/resellers/${byAdmin.id}`);
    expect(row.body.data).toMatchObject({ parent_id: m.id, parent: { id: m.id }, manager: { id: m.id }, credits: 10, server_id: 1 });
    // Admin mints a reseller's initial credits; the manager is not charged.
    expect((await balance(ctx, m.id)).credits).toBe(100);

    const byManager = await createReseller(ctx, m.client, 30);
    expect((await balance(ctx, m.id)).credits).toBe(70);
    expect((await admin.get(`/resellers/${byManager.id}`)).body.data.parent_id).toBe(m.id);
    const other = await m.client.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD, manager: await userId(ctx, 'manager2') });
    expect(other.status).toBe(422);
    expect(other.body.errors.manager).toEqual([HIERARCHY.managerAdminOnly]);
    const noPassword = await m.client.post('/resellers', { name: 'R', username: uniqueName('r') });
    expect(noPassword.body.errors.password).toEqual([ENTITY_FORM.passwordRequiredResellers]);
    const tooMuch = await m.client.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD, credits: 71 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.credits).toEqual(['Insufficient credits: You need 71 credits but only have 70']);
  });

  it('lists resellers with parent, total_children, total_accounts, filters and sort', async () => {
    const { manager, reseller, dealer } = await createBranch(ctx, { reseller: 40, dealer: 10 });
    await createDealer(ctx, reseller.client);
    await insertAccount(ctx, dealer.id);
    await insertAccount(ctx, dealer.id);
    await insertAccount(ctx, reseller.id);
    const second = await createReseller(ctx, manager.client);
    await manager.client.patch(`/resellers/${second.id}`, { is_active: false });

    const list = await manager.client.get('/resellers');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(2);
    const row = list.body.data.find((r: { id: number }) => r.id === reseller.id);
    expect(row).toMatchObject({
      parent: { id: manager.id, name: `Manager ${manager.username}` },
      total_children: 2,
      total_accounts: 3,
      credits: 40,
      is_active: true,
    });
    expect(typeof row.created_at).toBe('string');
    const active = await manager.client.get('/resellers?filter[is_active]=1');
    expect(active.body.data.map((r: { id: number }) => r.id)).toEqual([reseller.id]);
    const search = await manager.client.get(`/resellers?filter[search]=${second.username.toUpperCase()}`);
    expect(search.body.data.map((r: { id: number }) => r.id)).toEqual([second.id]);
    const byChildren = await manager.client.get('/resellers?sort=total_children&order=desc');
    expect(byChildren.body.data[0].id).toBe(reseller.id);
    const byCreated = await manager.client.get('/resellers?sort=created_at&order=asc');
    expect(byCreated.body.data.map((r: { id: number }) => r.id)).toEqual([reseller.id, second.id]);
    const admin = await ctx.as('admin');
    const forManager = await admin.get(`/resellers?filter[manager]=${manager.id}`);
    expect(forManager.body.meta.total).toBe(2);
  });

  it('moving a reseller to another manager moves its dealers and their accounts', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller, dealer } = await createBranch(ctx);
    const account = await insertAccount(ctx, dealer.id);
    const target = await createManager(ctx);
    const res = await admin.put(`/resellers/${reseller.id}`, { manager: target.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ parent_id: target.id, manager: { id: target.id } });
    const rows = await ctx.db.kysely.selectFrom('users').select(['id', 'path', 'parent_id']).where('id', 'in', [reseller.id, dealer.id]).execute();
    const adminId = await userId(ctx, 'admin');
    expect(rows.find((r) => r.id === reseller.id)!.path).toBe(`/${adminId}/${target.id}/${reseller.id}/`);
    expect(rows.find((r) => r.id === dealer.id)!.path).toBe(`/${adminId}/${target.id}/${reseller.id}/${dealer.id}/`);
    const acc = await ctx.db.kysely.selectFrom('accounts').select('owner_path').where('id', '=', account).executeTakeFirstOrThrow();
    expect(acc.owner_path).toBe(`/${adminId}/${target.id}/${reseller.id}/${dealer.id}/`);
    // The old manager lost the branch, the new one has it.
    expect((await manager.client.get(`/dealers/${dealer.id}`)).status).toBe(404);
    expect((await target.client.get(`/dealers/${dealer.id}`)).status).toBe(200);
    expect(await lastAudit(ctx, 'resellers', 'move', reseller.id)).toBeTruthy();
    // A manager may not move resellers.
    const refused = await target.client.put(`/resellers/${reseller.id}`, { manager: manager.id });
    expect(refused.body.errors.manager).toEqual([HIERARCHY.managerAdminOnly]);
  });

  it('creates dealers under the right reseller for each role, paid by the creator', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller } = await createBranch(ctx, { manager: 50, reseller: 50 });
    const byReseller = await createDealer(ctx, reseller.client, 20);
    expect((await admin.get(`/dealers/${byReseller.id}`)).body.data).toMatchObject({
      parent_id: reseller.id,
      reseller: { id: reseller.id },
      manager: { id: manager.id },
      credits: 20,
    });
    expect((await balance(ctx, reseller.id)).credits).toBe(30);

    const required = await manager.client.post('/dealers', { name: 'D', username: uniqueName('d'), password: PASSWORD });
    expect(required.body.errors.reseller).toEqual([HIERARCHY.resellerRequired]);
    const foreign = await manager.client.post('/dealers', { name: 'D', username: uniqueName('d'), password: PASSWORD, reseller: await userId(ctx, 'reseller2') });
    expect(foreign.body.errors.reseller).toEqual([HIERARCHY.resellerInvalid]);
    // A manager's dealer goes under one of its resellers; only that reseller may give it credits.
    const byManager = await createDealer(ctx, manager.client, 0, { reseller: reseller.id });
    expect((await admin.get(`/dealers/${byManager.id}`)).body.data.parent_id).toBe(reseller.id);
    expect((await balance(ctx, manager.id)).credits).toBe(50);
    const byAdmin = await createDealer(ctx, admin, 0, { reseller: await userId(ctx, 'reseller2') });
    expect((await admin.get(`/dealers/${byAdmin.id}`)).body.data.reseller.id).toBe(await userId(ctx, 'reseller2'));
    const notMine = await reseller.client.post('/dealers', { name: 'D', username: uniqueName('d'), password: PASSWORD, reseller: await userId(ctx, 'reseller') });
    expect(notMine.body.errors.reseller).toEqual([HIERARCHY.resellerInvalid]);
    const noPassword = await reseller.client.post('/dealers', { name: 'D', username: uniqueName('d') });
    expect(noPassword.body.errors.password).toEqual([ENTITY_FORM.passwordRequiredAccounts]);
  });

  it('enforces the minimum credits for creating resellers and dealers (admin exempt)', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller } = await createBranch(ctx, { manager: 5, reseller: 10 });
    await updateSystemSettings(ctx.db.kysely, { minimum_credits_reseller_creation: 10, minimum_credits_dealer_creation: 20 });
    try {
      const r = await manager.client.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD });
      expect(r.status).toBe(422);
      expect(r.body.errors.credits).toEqual(['You need at least 10 credits to create a reseller.']);
      const d = await reseller.client.post('/dealers', { name: 'D', username: uniqueName('d'), password: PASSWORD });
      expect(d.body.errors.credits).toEqual(['You need at least 20 credits to create a dealer.']);
      await createReseller(ctx, admin, 0, { manager: manager.id });
    } finally {
      await updateSystemSettings(ctx.db.kysely, { minimum_credits_reseller_creation: 0, minimum_credits_dealer_creation: 0 });
    }
  });

  it('promotes a dealer to reseller under a manager; its accounts stay with it', async () => {
    const admin = await ctx.as('admin');
    const { manager, dealer } = await createBranch(ctx, { dealer: 12 });
    const account = await insertAccount(ctx, dealer.id);
    const wrong = await manager.client.post(`/dealers/${dealer.id}/promote`, { manager_id: await userId(ctx, 'manager2') });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.manager_id).toEqual([HIERARCHY.managerInvalid]);
    const res = await manager.client.post(`/dealers/${dealer.id}/promote`, { manager_id: manager.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ role: 'reseller', parent_id: manager.id, credits: 12, total_accounts: 1 });
    const acc = await ctx.db.kysely.selectFrom('accounts').select(['owner_path', 'owner_id']).where('id', '=', account).executeTakeFirstOrThrow();
    expect(acc).toEqual({ owner_id: dealer.id, owner_path: `/${await userId(ctx, 'admin')}/${manager.id}/${dealer.id}/` });
    expect((await manager.client.get(`/resellers/${dealer.id}`)).status).toBe(200);
    expect((await manager.client.get(`/dealers/${dealer.id}`)).status).toBe(404);
    expect(await lastAudit(ctx, 'dealers', 'promote', dealer.id)).toBeTruthy();

    // Admin may promote under any manager.
    const other = await createBranch(ctx);
    const manager2 = await userId(ctx, 'manager2');
    const byAdmin = await admin.post(`/dealers/${other.dealer.id}/promote`, { manager_id: manager2 });
    expect(byAdmin.body.data).toMatchObject({ role: 'reseller', parent_id: manager2, server_id: 2 });
  });

  it('refuses to delete a user holding credits, children or accounts (409), then deletes', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller, dealer } = await createBranch(ctx, { dealer: 10 });
    const account = await insertAccount(ctx, dealer.id);

    const withChildren = await manager.client.delete(`/resellers/${reseller.id}`);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.message).toBe(HIERARCHY.deleteHasChildren(1, 'dealer'));
    const withCredits = await reseller.client.delete(`/dealers/${dealer.id}`);
    expect(withCredits.status).toBe(409);
    expect(withCredits.body.message).toBe(HIERARCHY.deleteHasCredits(10));

    expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    const withAccounts = await reseller.client.delete(`/dealers/${dealer.id}`);
    expect(withAccounts.status).toBe(409);
    expect(withAccounts.body.message).toBe(HIERARCHY.deleteHasAccounts(1));

    await ctx.db.kysely.updateTable('accounts').set({ deleted_at: new Date().toISOString() }).where('id', '=', account).execute();
    const deleted = await reseller.client.delete(`/dealers/${dealer.id}`);
    expect(deleted.status).toBe(204);
    // Its ledger history stays: the row is kept, marked deleted, invisible and unable to sign in.
    const row = await ctx.db.kysely.selectFrom('users').select('status').where('id', '=', dealer.id).executeTakeFirst();
    expect(row?.status).toBe('deleted');
    expect((await reseller.client.get(`/dealers/${dealer.id}`)).status).toBe(404);
    expect((await reseller.client.get('/dealers')).body.data).toEqual([]);
    expect((await dealer.client.get('/user')).status).toBe(401);
    expect((await ctx.anonymous.post('/login', { username: dealer.username, password: PASSWORD })).status).toBe(422);
    expect(await lastAudit(ctx, 'dealers', 'delete', dealer.id)).toMatchObject({ username: reseller.username, target_username: dealer.username });

    // A user without any history is removed outright.
    const fresh = await createDealer(ctx, reseller.client);
    expect((await reseller.client.delete(`/dealers/${fresh.id}`)).status).toBe(204);
    expect(await ctx.db.kysely.selectFrom('users').select('id').where('id', '=', fresh.id).executeTakeFirst()).toBeUndefined();

    // The reseller now has no live children; its manager may delete it once its credits are back.
    expect((await manager.client.delete(`/resellers/${reseller.id}`)).status).toBe(409);
    expect((await manager.client.post(`/resellers/${reseller.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    const res = await manager.client.delete(`/resellers/${reseller.id}`);
    expect(res.status).toBe(204);
    expect((await admin.get(`/resellers/${reseller.id}`)).status).toBe(404);
    expect((await admin.post(`/managers/${manager.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    const managerDelete = await admin.delete(`/managers/${manager.id}`);
    expect(managerDelete.status).toBe(204);
  });

  it('deletes a user left with bonus credits only, writing the bonus off in the ledger', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    await inTransaction(ctx.db.kysely, (trx) =>
      postChanges(trx, [{ userId: dealer.id, type: 'PURCHASED', credits: 4, bonusCredits: 4, remarks: 'Promo bonus: test' }], { actorId: null }),
    );
    const res = await reseller.client.delete(`/dealers/${dealer.id}`);
    expect(res.status).toBe(204);
    expect(await balance(ctx, dealer.id)).toEqual({ credits: 0, bonus_credits: 0 });
    const last = await ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', dealer.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last).toMatchObject({ type: 'RECOVERED', credits: -4, bonus_credits: -4, counterparty_id: null, balance_after: 0 });
  });

  it('initial credits on create follow the Add Credits rules: a non-admin gives only to its direct child, at least the minimum', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller } = await createBranch(ctx, { manager: 50, reseller: 30 });
    const before = { manager: await balance(ctx, manager.id), reseller: await balance(ctx, reseller.id) };
    const username = uniqueName('d');
    const grandchild = await manager.client.post('/dealers', { name: 'D', username, password: PASSWORD, credits: 5, reseller: reseller.id });
    expect(grandchild.status).toBe(422);
    expect(grandchild.body.errors).toEqual({ credits: [HIERARCHY.initialCreditsDirectChildOnly] });
    expect(await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()).toBeUndefined();
    expect(await balance(ctx, manager.id)).toEqual(before.manager);
    expect(await balance(ctx, reseller.id)).toEqual(before.reseller);
    // Admin mints to any level.
    const minted = await createDealer(ctx, admin, 5, { reseller: reseller.id });
    expect(await balance(ctx, minted.id)).toEqual({ credits: 5, bonus_credits: 0 });

    await updateSystemSettings(ctx.db.kysely, { minimum_credit_limit: 10 });
    try {
      const small = await reseller.client.post('/dealers', { name: 'D', username: uniqueName('d'), password: PASSWORD, credits: 5 });
      expect(small.status).toBe(422);
      expect(small.body.errors).toEqual({ credits: [HIERARCHY.minimumCreditLimit(10)] });
      expect(await balance(ctx, reseller.id)).toEqual(before.reseller);
      const smallReseller = await manager.client.post('/resellers', { name: 'R', username: uniqueName('r'), password: PASSWORD, credits: 9 });
      expect(smallReseller.body.errors).toEqual({ credits: [HIERARCHY.minimumCreditLimit(10)] });
      await createDealer(ctx, reseller.client, 10);
      await createDealer(ctx, reseller.client, 0);
      await createDealer(ctx, admin, 3, { reseller: reseller.id });
      expect((await balance(ctx, reseller.id)).credits).toBe(before.reseller.credits - 10);
    } finally {
      await updateSystemSettings(ctx.db.kysely, { minimum_credit_limit: 0 });
    }
  });

  it('a parent deleted while a child is created: the two serialise, never a 5xx, never a live orphan', { timeout: 120_000 }, async () => {
    const { manager } = await createBranch(ctx);
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const reseller = await createReseller(ctx, manager.client);
      // With ledger history the delete only marks the row deleted (the orphan case); without, it removes it.
      if (i % 2 === 0) {
        await inTransaction(ctx.db.kysely, (trx) => postChanges(trx, [{ userId: reseller.id, type: 'TRIAL', credits: 0, remarks: 'history' }], { actorId: null }));
      }
      const [created, deleted] = await Promise.all([
        manager.client.post('/dealers', { name: 'Race', username: uniqueName('race'), password: PASSWORD, reseller: reseller.id }),
        // Staggered, so the delete lands before, during and after the create's transaction.
        new Promise((resolve) => setTimeout(resolve, (i % 6) * 25)).then(() => manager.client.delete(`/resellers/${reseller.id}`)),
      ]);
      outcomes.add(`${created.status}/${deleted.status}`);
      // Either the dealer came first (the reseller has a child now) or the reseller was gone.
      if (created.status === 201) {
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(409);
        expect(deleted.body.message).toBe(HIERARCHY.deleteHasChildren(1, 'dealer'));
      } else {
        expect(created.status, JSON.stringify(created.body)).toBe(422);
        expect(created.body.errors).toEqual({ reseller: [HIERARCHY.resellerInvalid] });
        expect(deleted.status).toBe(204);
      }
    }
    const orphans = await sql<{ id: number }>`
      select c.id from users c left join users p on p.id = c.parent_id
      where c.status != 'deleted' and c.parent_id is not null and (p.id is null or p.status = 'deleted')`.execute(ctx.db.kysely);
    expect(orphans.rows).toEqual([]);
    expect([...outcomes].every((o) => ['201/409', '422/204'].includes(o))).toBe(true);
  });

  it('never returns panel passwords in any list or show', async () => {
    const admin = await ctx.as('admin');
    for (const url of ['/managers', '/resellers', '/dealers', `/dealers/${await userId(ctx, 'dealer')}`]) {
      const res = await admin.get(url);
      expect(res.status).toBe(200);
      expect(allKeys(res.body).filter((k) => /pass|pwd|hash/i.test(k))).toEqual([]);
    }
    const reseller = await ctx.as('reseller');
    const own = await reseller.get('/dealers');
    expect(allKeys(own.body).filter((k) => /pass|pwd|hash/i.test(k))).toEqual([]);
  });
});

describeEachDatabase(
  'hierarchy: initial credits are a credit operation',
  (ctx) => {
    it('creating users with initial credits counts against the per-actor credit rate limit', async () => {
      const reseller = await ctx.as('reseller');
      const body = () => ({ name: 'D', username: uniqueName('d'), password: PASSWORD, credits: 10 });
      expect((await reseller.post('/dealers', body())).status).toBe(201);
      expect((await reseller.post('/dealers', body())).status).toBe(201);
      const username = uniqueName('d');
      const limited = await reseller.post('/dealers', { ...body(), username });
      expect(limited.status).toBe(422);
      expect(limited.body.errors).toEqual({ rate_limit: [CREDITS.rateLimit.description] });
      expect(await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()).toBeUndefined();
      // Without credits a create moves nothing and is not limited.
      expect((await reseller.post('/dealers', { ...body(), credits: 0 })).status).toBe(201);
      // The Add Credits budget is the same one.
      const dealer = await userId(ctx, 'dealer');
      expect((await reseller.post(`/dealers/${dealer}/credits`, { action: 'renew', credits: 10 })).body.errors).toEqual({ rate_limit: [CREDITS.rateLimit.description] });
    });
  },
  { creditOpsPerMinute: 2 },
);
